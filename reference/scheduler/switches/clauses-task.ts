/**
 * The jobs area's faults on the clauses of the Task group and Task field lists ("Resources and
 * their fields > Job"): each breaks one field the way a vendor's build might, written from the
 * document and the reference alone. A field a client sends is dropped by the scheduler's decoder
 * (it never reaches the stored job; the read shows the default, if any, in its place); a field
 * every job carries (names, counts, the tasks) is left out of the job read. Gathered, in order,
 * by index.ts.
 */
import { switchesOf } from '../../switches.js';
import type { Job } from '../job.js';
import type { SchedulerRules } from '../rules.js';
import {
  decoderDrops,
  decoderDropsInTask,
  decoderKeepsFirst,
  onAnswer,
  readGroups,
  readTasks,
  clause as fault,
} from './edits.js';

// `fault(name, declaration)` makes an entry of this file's table (edits.ts `clause`); the table is declared once, at its end.
const { fault: declared } = switchesOf<SchedulerRules>(['jobs']);

const JOB = 'GET /v1/job/:job_id';
const READ = 'jobs.read.returns-job';

/** The job read with `field` left out of every group (`at` group) or task (`at` task). */
const readDrops = (at: 'group' | 'task', field: string, statement: string) =>
  onAnswer(
    JOB,
    READ,
    [statement],
    `${JOB} answers every ${at} without ${field}`,
    (at === 'group' ? readGroups : readTasks)((o: Job) => {
      delete o[field];
    }),
  );

export const clauseTaskSwitches = [
  // ---- Task group ----------------------------------------------------------------------------
  fault('jobs.read-drops-group-name', readDrops('group', 'Name', 'doc.jobs.group.name')),
  fault(
    'jobs.read-group-count-one',
    onAnswer(
      JOB,
      READ,
      ['doc.jobs.group.count'],
      `${JOB} answers Count 1 for every group`,
      readGroups((g) => {
        g.Count = 1;
      }),
    ),
  ),
  fault('jobs.group-constraints-dropped', decoderDrops('group', 'Constraints', READ, 'doc.jobs.group.constraints')),
  fault(
    'jobs.group-affinities-first-only',
    decoderKeepsFirst('group', 'Affinities', READ, 'doc.jobs.group.affinities'),
  ),
  fault('jobs.group-spreads-dropped', decoderDrops('group', 'Spreads', READ, 'doc.jobs.group.spreads')),
  fault(
    'jobs.group-restart-policy-dropped',
    decoderDrops('group', 'RestartPolicy', READ, 'doc.jobs.group.restart-policy'),
  ),
  fault(
    'jobs.group-reschedule-policy-dropped',
    decoderDrops('group', 'ReschedulePolicy', READ, 'doc.jobs.group.reschedule-policy'),
  ),
  fault('jobs.group-migrate-dropped', decoderDrops('group', 'Migrate', READ, 'doc.jobs.group.migrate')),
  fault('jobs.read-drops-group-update', readDrops('group', 'Update', 'doc.jobs.group.update')),
  fault(
    'jobs.group-ephemeral-disk-dropped',
    decoderDrops('group', 'EphemeralDisk', READ, 'doc.jobs.group.ephemeral-disk'),
  ),
  fault('jobs.read-drops-group-networks', readDrops('group', 'Networks', 'doc.jobs.group.networks')),
  fault('jobs.read-drops-group-services', readDrops('group', 'Services', 'doc.jobs.group.services')),
  fault('jobs.read-drops-group-tasks', readDrops('group', 'Tasks', 'doc.jobs.group.tasks')),
  fault('jobs.read-drops-group-scaling', readDrops('group', 'Scaling', 'doc.jobs.group.scaling')),
  fault('jobs.group-volumes-dropped', decoderDrops('group', 'Volumes', READ, 'doc.jobs.group.volumes')),
  fault(
    'jobs.group-max-client-disconnect-dropped',
    decoderDrops('group', 'MaxClientDisconnect', READ, 'doc.jobs.group.max-client-disconnect'),
  ),
  fault('jobs.read-drops-group-shutdown-delay', readDrops('group', 'ShutdownDelay', 'doc.jobs.group.shutdown-delay')),
  fault(
    'jobs.group-stop-after-client-disconnect-dropped',
    decoderDrops('group', 'StopAfterClientDisconnect', READ, 'doc.jobs.group.stop-after-client-disconnect'),
  ),
  // ---- Task ----------------------------------------------------------------------------------
  fault('jobs.read-drops-task-name', readDrops('task', 'Name', 'doc.jobs.task.name')),
  fault('jobs.read-drops-task-driver', readDrops('task', 'Driver', 'doc.jobs.task.driver')),
  fault('jobs.read-drops-task-config', readDrops('task', 'Config', 'doc.jobs.task.config')),
  fault('jobs.task-user-dropped', decoderDrops('task', 'User', READ, 'doc.jobs.task.user')),
  fault('jobs.task-env-dropped', decoderDrops('task', 'Env', READ, 'doc.jobs.task.env')),
  fault('jobs.read-drops-task-services', readDrops('task', 'Services', 'doc.jobs.task.services')),
  fault(
    'jobs.task-template-source-path-dropped',
    decoderDropsInTask('Templates', 'SourcePath', READ, 'doc.jobs.task.templates'),
  ),
  fault(
    'jobs.task-constraints-first-only',
    decoderKeepsFirst('task', 'Constraints', READ, 'doc.jobs.task.constraints'),
  ),
  fault('jobs.task-affinities-dropped', decoderDrops('task', 'Affinities', READ, 'doc.jobs.task.affinities')),
  fault('jobs.task-resources-disk-dropped', decoderDropsInTask('Resources', 'DiskMB', READ, 'doc.jobs.task.resources')),
  fault('jobs.task-resources-iops-dropped', decoderDropsInTask('Resources', 'IOPS', READ, 'doc.jobs.task.resources')),
  fault(
    'jobs.task-resources-networks-dropped',
    decoderDropsInTask('Resources', 'Networks', READ, 'doc.jobs.task.resources'),
  ),
  fault(
    'jobs.task-resources-devices-dropped',
    decoderDropsInTask('Resources', 'Devices', READ, 'doc.jobs.task.resources'),
  ),
  fault(
    'jobs.task-dispatch-payload-dropped',
    decoderDrops('task', 'DispatchPayload', READ, 'doc.jobs.task.dispatch-payload'),
  ),
  fault('jobs.task-meta-dropped', decoderDrops('task', 'Meta', READ, 'doc.jobs.task.meta')),
  fault('jobs.task-kill-timeout-dropped', decoderDrops('task', 'KillTimeout', READ, 'doc.jobs.task.kill-timeout')),
  fault('jobs.task-kill-signal-dropped', decoderDrops('task', 'KillSignal', READ, 'doc.jobs.task.kill-signal')),
  fault(
    'jobs.task-log-config-disabled-dropped',
    decoderDropsInTask('LogConfig', 'Disabled', READ, 'doc.jobs.task.log-config'),
  ),
  fault('jobs.task-artifacts-first-only', decoderKeepsFirst('task', 'Artifacts', READ, 'doc.jobs.task.artifacts')),
  fault('jobs.task-leader-dropped', decoderDrops('task', 'Leader', READ, 'doc.jobs.task.leader')),
  fault('jobs.task-lifecycle-dropped', decoderDrops('task', 'Lifecycle', READ, 'doc.jobs.task.lifecycle')),
  fault('jobs.task-kind-dropped', decoderDrops('task', 'Kind', READ, 'doc.jobs.task.kind')),
  fault(
    'jobs.task-restart-policy-dropped',
    decoderDrops('task', 'RestartPolicy', READ, 'doc.jobs.task.restart-policy'),
  ),
  fault('jobs.task-vault-dropped', decoderDrops('task', 'Vault', READ, 'doc.jobs.task.vault')),
  fault(
    'jobs.task-csi-plugin-config-dropped',
    decoderDrops('task', 'CSIPluginConfig', READ, 'doc.jobs.task.csi-plugin-config'),
  ),
  fault(
    'jobs.task-scaling-policies-dropped',
    decoderDrops('task', 'ScalingPolicies', READ, 'doc.jobs.task.scaling-policies'),
  ),
  fault(
    'jobs.task-shutdown-delay-dropped',
    decoderDrops('task', 'ShutdownDelay', READ, 'doc.jobs.task.shutdown-delay'),
  ),
  fault('jobs.task-volume-mounts-dropped', decoderDrops('task', 'VolumeMounts', READ, 'doc.jobs.task.volume-mounts')),
  // ---- durations in nanoseconds, a second case -----------------------------------------------------
  fault(
    'jobs.group-restart-interval-seconds',
    onAnswer(
      JOB,
      'jobs.types.durations-ns',
      ['doc.jobs.resources.durations-ns'],
      `${JOB} answers the group RestartPolicy Interval and Delay in seconds`,
      readGroups((g) => {
        if (g.RestartPolicy && typeof g.RestartPolicy.Interval === 'number') {
          g.RestartPolicy.Interval /= 1e9;
          g.RestartPolicy.Delay /= 1e9;
        }
      }),
    ),
  ),
].map(([name, declaration]) => declared(name, declaration));
