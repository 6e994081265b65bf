/**
 * The envelope's lease fields on an answer that creates a lease (secrets-service-core.md,
 * "Response envelope": lease_id, renewable, lease_duration), read against what
 * sys/leases/lookup reports of that lease. The lease comes from the cloud engine (cloud-fixture.ts).
 */
import { suite, conformance } from '../../harness/index.js';
import { expectThat, statusIs } from '../../harness/checks/index.js';
import { applicationRole, cloudEngine, revokeAfter } from './cloud-fixture.js';

suite('core');

/** The role's ttl: large enough that a lease of it cannot be told from the engine's default by chance. */
const TTL = 4321;

interface Leased {
  lease_id?: unknown;
  renewable?: unknown;
  lease_duration?: unknown;
}

conformance(
  {
    id: 'core.envelope.lease-id-names-lease',
    also: ['core.envelope.renewable-of-lease', 'core.envelope.lease-duration-of-lease'],
    level: 'MUST',
    title: 'GET /cloud/creds/:name answers lease_id, renewable and lease_duration of the lease it creates',
  },
  async (t) => {
    const mount = await cloudEngine(t);
    const role = await applicationRole(t, mount, TTL);
    const issued = t.check(await t.svc.get(`${mount}/creds/${role}`), statusIs(200));
    const env = issued.response.body as Leased & { data?: { client_secret?: string } };
    if (typeof env.data?.client_secret === 'string') t.secret(env.data.client_secret);
    const leaseId = typeof env.lease_id === 'string' ? env.lease_id : '';
    revokeAfter(t, leaseId);

    expectThat(
      leaseId !== '',
      'lease-id',
      env.lease_id,
      'a non-empty string',
      'the answer that created a lease has no lease_id',
    );
    // What the lease is, read where the real product reports it (the documents show no lease
    // endpoint): a target without it cannot be compared, and the test is not applicable.
    const lookup = await t.svc.put('sys/leases/lookup', { body: { lease_id: leaseId } });
    t.precondition(lookup, statusIs(200));
    const lease = (lookup.response.body as { data?: { id?: unknown; ttl?: unknown; renewable?: unknown } }).data ?? {};
    expectThat(
      lease.id === leaseId,
      'lease-id',
      lease.id,
      leaseId,
      'sys/leases/lookup does not know the lease named by lease_id',
    );

    t.proving('core.envelope.renewable-of-lease', () => {
      expectThat(
        typeof env.renewable === 'boolean',
        'renewable',
        env.renewable,
        'a boolean',
        'renewable is not a boolean',
      );
      expectThat(
        env.renewable === lease.renewable,
        'renewable',
        env.renewable,
        lease.renewable,
        'renewable differs from what sys/leases/lookup reports of the lease',
      );
    });
    if (env.renewable === true) {
      const renewed = await t.svc.put('sys/leases/renew', { body: { lease_id: leaseId, increment: 60 } });
      t.as('core.envelope.renewable-of-lease').check(renewed, statusIs(200));
    }

    t.proving('core.envelope.lease-duration-of-lease', () => {
      const d = env.lease_duration;
      const ttl = typeof lease.ttl === 'number' ? lease.ttl : Number.NaN;
      expectThat(Number.isInteger(d), 'lease-duration', d, 'an integer', 'lease_duration is not an integer');
      // lookup's ttl counts down: it is at most the lease_duration, and a few seconds less at worst.
      expectThat(
        (d as number) >= ttl && (d as number) <= ttl + 5 && (d as number) <= TTL && (d as number) > 0,
        'lease-duration',
        d,
        `${ttl}..${ttl + 5}`,
        `lease_duration is not the lease's length in seconds (the role's ttl is ${TTL}; sys/leases/lookup reports ttl ${lease.ttl})`,
      );
    });
  },
);
