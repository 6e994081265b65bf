import { describe, expect, it } from 'vitest';
import { compileFilter, FilterError, parseFilter } from '../../../reference/scheduler/filter.js';

const job = {
  ID: 'web-api',
  Status: 'running',
  Type: 'service',
  Priority: 50,
  Stop: false,
  Datacenters: ['dc1', 'dc2'],
  Meta: { team: 'core', 'owner.email': 'a@b' },
  NodePool: '',
  ParentID: '',
  Periodic: null,
};
const run = (expr: string) => compileFilter(expr)(job);

describe('filter expressions', () => {
  it('== and != compare strings, numbers and booleans', () => {
    expect(run('Status == "running"')).toBe(true);
    expect(run('Status != "running"')).toBe(false);
    expect(run('Priority == 50')).toBe(true);
    expect(run('Stop == false')).toBe(true);
    expect(run('Status == running')).toBe(true); // bare word value
    expect(run('Status == `running`')).toBe(true); // backtick string
  });

  it('contains and in work on lists, strings and maps', () => {
    expect(run('Datacenters contains "dc2"')).toBe(true);
    expect(run('Datacenters not contains "dc3"')).toBe(true);
    expect(run('"dc1" in Datacenters')).toBe(true);
    expect(run('"dc9" not in Datacenters')).toBe(true);
    expect(run('ID contains "api"')).toBe(true);
    expect(run('Meta contains "team"')).toBe(true);
  });

  it('matches uses a regular expression', () => {
    expect(run('ID matches "^web-"')).toBe(true);
    expect(run('ID not matches "^db-"')).toBe(true);
  });

  it('is empty and is not empty', () => {
    expect(run('NodePool is empty')).toBe(true);
    expect(run('Datacenters is not empty')).toBe(true);
    expect(run('Periodic is empty')).toBe(true);
  });

  it('selects map keys with dots and brackets', () => {
    expect(run('Meta.team == "core"')).toBe(true);
    expect(run('Meta["owner.email"] == "a@b"')).toBe(true);
    expect(run('Meta.absent == "x"')).toBe(false);
    expect(run('Meta.absent is empty')).toBe(true);
  });

  it('combines with and, or, not and parentheses, and binds and tighter than or', () => {
    expect(run('Status == "dead" or Type == "service" and Priority == 50')).toBe(true);
    expect(run('(Status == "dead" or Type == "service") and Priority == 10')).toBe(false);
    expect(run('not Status == "dead"')).toBe(true);
    expect(run('not (Status == "running" and Type == "service")')).toBe(false);
  });

  it('rejects malformed expressions', () => {
    for (const bad of [
      '',
      'Status ==',
      'Status === "x"',
      '(Status == "x"',
      'Status == "x',
      'Status is "x"',
      'and',
      'ID matches "("',
    ]) {
      expect(() => parseFilter(bad), bad).toThrow(FilterError);
    }
  });

  it('an unknown top-level selector is an error at evaluation', () => {
    expect(() => run('Bogus == "x"')).toThrow(FilterError);
  });

  it('a number compared to a word is a coercion error', () => {
    expect(() => run('Priority == high')).toThrow(FilterError);
  });
});
