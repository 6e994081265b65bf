/** POST /v1/jobs/parse: the configuration language to a JSON job. */
import { suite, conformance } from '../../harness/index.js';
import { bodyAt } from '../../harness/checks/index.js';
import { hcl } from '../../fixtures/jobs/index.js';

import { refused, ok } from './helpers.js';

suite('jobs');

conformance(
  {
    id: 'jobs.parse.hcl-to-json',
    level: 'MUST',
    title: 'POST /v1/jobs/parse returns the JSON job of an HCL definition',
  },
  async (t) => {
    const ex = await t.sched.post('jobs/parse', { body: { JobHCL: hcl('example.hcl') } });
    t.check(
      ex,
      ok,
      bodyAt('/ID', 'example'),
      bodyAt('/Name', 'example'),
      bodyAt('/Type', 'service'),
      bodyAt('/Datacenters', ['dc1']),
      bodyAt('/TaskGroups/0/Name', 'cache'),
      bodyAt('/TaskGroups/0/Count', 2),
      bodyAt('/TaskGroups/0/Tasks/0/Name', 'redis'),
      bodyAt('/TaskGroups/0/Tasks/0/Driver', 'docker'),
      bodyAt('/TaskGroups/0/Tasks/0/Config/image', 'redis:7'),
      bodyAt('/TaskGroups/0/Tasks/0/Resources/CPU', 100),
      bodyAt('/TaskGroups/0/Tasks/0/Resources/MemoryMB', 128),
    );
  },
);

conformance(
  {
    id: 'jobs.parse.canonicalize',
    level: 'MUST',
    title: 'POST /v1/jobs/parse with Canonicalize fills defaults, without it leaves them unset',
  },
  async (t) => {
    const canon = await t.sched.post('jobs/parse', { body: { JobHCL: hcl('example.hcl'), Canonicalize: true } });
    t.check(
      canon,
      ok,
      bodyAt('/Namespace', 'default'),
      bodyAt('/Region', 'global'),
      bodyAt('/Priority', (v: unknown) => Number.isInteger(v) && (v as number) > 0, 'is a default priority'),
    );
    const raw = await t.sched.post('jobs/parse', { body: { JobHCL: hcl('example.hcl') } });
    t.check(
      raw,
      ok,
      bodyAt('/Priority', (v: unknown) => v === null || v === undefined, 'is unset without Canonicalize'),
    );
    t.check(
      await t.sched.post('jobs/parse', { body: { JobHCL: hcl('example.hcl'), Canonicalize: false } }),
      ok,
      bodyAt('/Priority', (v: unknown) => v === null || v === undefined, 'is unset with Canonicalize false'),
    );
  },
);

conformance(
  {
    id: 'jobs.parse.variables',
    level: 'MUST',
    title: 'POST /v1/jobs/parse uses Variables for the variables of the definition',
  },
  async (t) => {
    const ex = await t.sched.post('jobs/parse', {
      body: { JobHCL: hcl('variables.hcl'), Variables: hcl('variables.vars.hcl') },
    });
    t.check(ex, ok, bodyAt('/ID', 'vars'), bodyAt('/TaskGroups/0/Tasks/0/Config/image', 'busybox:1.36'));
    const missing = await t.sched.post('jobs/parse', { body: { JobHCL: hcl('variables.hcl') } });
    refused(t, missing, 'a variable without value or default');
  },
);

conformance(
  {
    id: 'jobs.parse.jobhcl-required',
    level: 'MUST',
    title: 'POST /v1/jobs/parse without JobHCL, or with text that does not parse, is refused',
  },
  async (t) => {
    refused(
      t,
      await t.sched.post('jobs/parse', { body: { Canonicalize: true }, validate: false }),
      'a parse request without JobHCL',
    );
    refused(
      t,
      await t.sched.post('jobs/parse', { body: { JobHCL: hcl('invalid.hcl') } }),
      'a parse request whose HCL does not parse',
    );
  },
);
