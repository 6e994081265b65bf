import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../harness/config/load.js';

const tmp = mkdtempSync(join(tmpdir(), 'cfg-'));
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

describe('target config', () => {
  it("defaults use the documents' header names and no address (embedded reference)", () => {
    const cfg = loadConfig({ env: {} });
    expect(cfg.svc.addr, 'no address by default').toBe('');
    expect(cfg.dialect.tokenHeader).toBe('X-Svc-Token');
    expect(cfg.dialect.nextTokenHeader).toBe('X-Sched-NextToken');
    expect(cfg.prefix.startsWith('cf-'), 'run-unique prefix').toBe(true);
  });

  it('precedence is defaults, then file, then environment, then CLI flags', () => {
    const f = file(
      'p.yaml',
      'svc:\n  addr: http://file:1\n  token: t-file\n  namespace: fromfile\nrun:\n  reportDir: file-reports\n',
    );
    const cfg = loadConfig({ file: f, env: { SVC_ADDR: 'http://env:2' }, cli: { reportDir: 'cli-reports' } });
    expect(cfg.svc.addr, 'env wins over file').toBe('http://env:2');
    expect(cfg.svc.token, 'file wins over defaults').toBe('t-file');
    expect(cfg.svc.namespace).toBe('fromfile');
    expect(cfg.run.reportDir, 'CLI wins over file').toBe('cli-reports');
  });

  it('a malformed SVC_ADDR names the setting and its source', () => {
    expect(() => loadConfig({ env: { SVC_ADDR: 'not a url', SVC_TOKEN: 'x' } })).toThrowError(
      /svc\.addr \(SVC_ADDR\).*environment/,
    );
  });

  it('SVC_ADDR without SVC_TOKEN is a config error naming SVC_TOKEN', () => {
    expect(() => loadConfig({ env: { SVC_ADDR: 'http://127.0.0.1:8200' } })).toThrowError(ConfigError);
    expect(() => loadConfig({ env: { SVC_ADDR: 'http://127.0.0.1:8200' } })).toThrowError(/SVC_TOKEN/);
  });

  it('SVC_SKIP_VERIFY accepts only booleans', () => {
    expect(() => loadConfig({ env: { SVC_SKIP_VERIFY: 'maybe' } })).toThrowError(/SVC_SKIP_VERIFY/);
    expect(loadConfig({ env: { SVC_SKIP_VERIFY: 'true' } }).svc.skipVerify).toBe(true);
  });

  it('an unknown key in the config file is rejected by name', () => {
    const f = file('u.yaml', 'svc:\n  adress: http://x:1\n');
    expect(() => loadConfig({ file: f, env: {} })).toThrowError(/svc\.adress: unknown setting/);
  });

  it('robustness.concurrency defaults to 8 and a bad value names the setting and its source', () => {
    expect(loadConfig({ env: {} }).robustness.concurrency).toBe(8);
    expect(
      loadConfig({ file: file('rc1.yaml', 'robustness:\n  concurrency: 1\n'), env: {} }).robustness.concurrency,
    ).toBe(1);
    for (const bad of ['0', '2.5', 'many', '1000']) {
      const f = file(`rc-${bad}.yaml`, `robustness:\n  concurrency: ${bad}\n`);
      expect(() => loadConfig({ file: f, env: {} }), bad).toThrowError(ConfigError);
      expect(() => loadConfig({ file: f, env: {} }), bad).toThrowError(/robustness\.concurrency: .*from config file/);
    }
  });

  it('an unknown suite is rejected', () => {
    expect(() => loadConfig({ env: {}, cli: { suite: ['nope'] } })).toThrowError(/unknown suite "nope"/);
  });

  it('a missing config file is named', () => {
    expect(() => loadConfig({ file: join(tmp, 'absent.yaml'), env: {} })).toThrowError(/file not found/);
  });

  it('a dialect profile renames headers without touching suites', () => {
    const f = file(
      'd.yaml',
      'dialect:\n  tokenHeader: X-Vault-Token\n  namespaceHeader: X-Vault-Namespace\n  requestHeader: X-Vault-Request\n  nextTokenHeader: X-Nomad-NextToken\n  schedTokenHeader: X-Nomad-Token\n  outputPrefix: vault\n',
    );
    const cfg = loadConfig({ file: f, env: {} });
    expect(cfg.dialect.outputPrefix).toBe('vault');
    expect(cfg.dialect.nextTokenHeader).toBe('X-Nomad-NextToken');
  });
});

describe('assumption switches', () => {
  it('an assumption id can be switched off', () => {
    const f = file('a.yaml', 'assumptions:\n  kv.v2.cas-mismatch-400: false\n');
    expect(() => loadConfig({ file: f, env: {} })).not.toThrow();
  });
  it('a rule of the documents cannot be switched off as an assumption', () => {
    const f = file('r.yaml', 'assumptions:\n  core.list.empty-404: false\n');
    expect(() => loadConfig({ file: f, env: {} })).toThrowError(
      /assumptions\.core\.list\.empty-404: .*not an assumption/,
    );
  });
  it('an unknown id is named', () => {
    const f = file('n.yaml', 'assumptions:\n  no.such.id: false\n');
    expect(() => loadConfig({ file: f, env: {} })).toThrowError(/assumptions\.no\.such\.id: no catalogue entry/);
  });
});

describe('run.assumptions (how assumption differences count)', () => {
  it('report by default; strict from the file, the environment or the command line, the later winning', () => {
    expect(loadConfig({ env: {} }).run.assumptions).toBeUndefined();
    const f = file('s.yaml', 'run:\n  assumptions: strict\n');
    expect(loadConfig({ file: f, env: {} }).run.assumptions).toBe('strict');
    expect(loadConfig({ env: { CONFORMANCE_ASSUMPTIONS: 'strict' } }).run.assumptions).toBe('strict');
    expect(loadConfig({ file: f, env: {}, cli: { assumptions: 'report' } }).run.assumptions).toBe('report');
  });
  it('another value is a configuration error naming the setting and the variable', () => {
    expect(() => loadConfig({ env: { CONFORMANCE_ASSUMPTIONS: 'lenient' } })).toThrowError(
      /run\.assumptions \(CONFORMANCE_ASSUMPTIONS\): must be equal to one of the allowed values/,
    );
  });
});

describe('shipped profiles', () => {
  it('fixtures/profiles/upstream-names.yaml loads', () => {
    const cfg = loadConfig({ file: 'fixtures/profiles/upstream-names.yaml', env: {} });
    expect(cfg.dialect.tokenHeader).toBe('X-Vault-Token');
    expect(cfg.dialect.outputPrefix).toBe('vault');
  });
});
