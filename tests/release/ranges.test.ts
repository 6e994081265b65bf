/**
 * The reference transcribes the affected ranges of the known issues it carries independently of
 * the catalogue; both come from the same table, so any disagreement is a transcription error.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/spec/catalogue.js';
import { isAffected } from '../../harness/spec/version-gates.js';
import { CARRIED, carries, rollbackWorkers, type CarriedIssue } from '../../reference/secrets/release/versions.js';

const catalogue = loadCatalogue();

describe('known issues carried by the reference', () => {
  for (const [id, ranges] of Object.entries(CARRIED)) {
    it(`${id}: the reference's ranges are the catalogue's`, () => {
      expect(catalogue.get(id)?.affected, `affected ranges of ${id} in spec/release/requirements.yaml`).toEqual([
        ...ranges,
      ]);
    });
  }

  it('agrees with the harness gate on both sides of every fix', () => {
    const versions = [
      '1.12.9',
      '1.13.0',
      '1.13.1',
      '1.13.7',
      '1.13.8',
      '1.13.9',
      '1.13.10',
      '1.13.13',
      '1.13.14',
      '1.14.4',
      '1.14.5',
      '1.14.6',
      '1.14.9',
      '1.14.10',
      '1.15.0',
      '1.15.1',
      '1.15.2',
      '1.15.5',
      '1.15.6',
      '1.16.0',
      '1.13.9+ent',
    ];
    const disagreements: string[] = [];
    for (const id of Object.keys(CARRIED) as CarriedIssue[]) {
      for (const v of versions)
        if (carries(id, v) !== isAffected(catalogue.get(id), v)) disagreements.push(`${id} @ ${v}`);
    }
    expect(disagreements, 'versions where the reference and the harness gate disagree').toEqual([]);
  });

  it('carries the documented symptoms: STS at 1.13.0, three at 1.13.9, only the many-mounts deadlock at 1.13.10, none at 1.13.14', () => {
    expect(
      (Object.keys(CARRIED) as CarriedIssue[]).filter((id) => carries(id, '1.13.0')),
      'issues at 1.13.0',
    ).toEqual(['release.known.sts-lease-duration-zero']);
    expect(
      (Object.keys(CARRIED) as CarriedIssue[]).filter((id) => carries(id, '1.13.9')),
      'issues at 1.13.9',
    ).toEqual([
      'release.known.expiration-metrics-crash',
      'release.known.login-missing-group-policy',
      'release.known.many-mounts-deadlock',
    ]);
    expect(
      (Object.keys(CARRIED) as CarriedIssue[]).filter((id) => carries(id, '1.13.10')),
      'issues at 1.13.10',
    ).toEqual(['release.known.many-mounts-deadlock']);
    expect(
      (Object.keys(CARRIED) as CarriedIssue[]).filter((id) => carries(id, '1.13.14')),
      'issues at 1.13.14',
    ).toEqual([]);
  });

  it('sizes the rollback worker pool at 256 unless SVC_ROLLBACK_WORKERS raises it', () => {
    expect(rollbackWorkers({}), 'default').toBe(256);
    expect(rollbackWorkers({ SVC_ROLLBACK_WORKERS: '1024' }), 'workaround').toBe(1024);
    expect(rollbackWorkers({ SVC_ROLLBACK_WORKERS: 'lots' }), 'unparsable value').toBe(256);
  });
});
