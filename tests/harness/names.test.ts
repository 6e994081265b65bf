import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';
import { NameTranslator, type NamesDialect } from '../../harness/dialect/names.js';
import { defaults, loadConfig } from '../../harness/config/load.js';
import { ApiClient } from '../../harness/http/client.js';
import { Redactor, REDACTED } from '../../harness/redaction/redact.js';

const names: NamesDialect = {
  svc: {
    mountTypes: { cloud: 'azure' },
    engines: {
      cloud: {
        fields: { cloud_roles: 'azure_roles', cloud_groups: 'azure_groups', secret_word: 'word' },
        values: { sign_in_audience: { CloudADMyOrg: 'AzureADMyOrg', PersonalAccount: 'PersonalMicrosoftAccount' } },
      },
      ldap: { fields: { last_svc_rotation: 'last_vault_rotation', password: 'pass' } },
    },
    env: { CLOUD_TENANT_ID: 'AZURE_TENANT_ID' },
  },
  sched: { fields: { SchedTokenID: 'NomadTokenID' } },
};

/** Run-unique mounts map back to the documents' default mount, as the harness's mount aliases do. */
const aliases: Record<string, string> = { 'cf-x-cloud-1': 'cloud', 'cf-x-ldap-1': 'ldap', 'cf-x-secret-1': 'secret' };
const scopeOf = (p: string) => {
  const [first, ...rest] = p.replace(/^\/+/, '').split('/');
  return `/${[aliases[first!] ?? first, ...rest].join('/')}`;
};
const svc = new NameTranslator('svc', names, scopeOf);

describe('dialect names: requests to the target', () => {
  it('renames fields at any depth and enum values under their field only', () => {
    const body = {
      cloud_roles: '[]',
      nested: { list: [{ cloud_groups: '[]' }] },
      sign_in_audience: 'CloudADMyOrg',
      tags: 'CloudADMyOrg',
    };
    const out = svc.request('/cf-x-cloud-1/roles/r', { body });
    expect(out.body).toEqual({
      azure_roles: '[]',
      nested: { list: [{ azure_groups: '[]' }] },
      sign_in_audience: 'AzureADMyOrg',
      tags: 'CloudADMyOrg',
    });
    expect(out.renamed).toEqual(
      expect.arrayContaining([
        'cloud_roles→azure_roles',
        'cloud_groups→azure_groups',
        'sign_in_audience: CloudADMyOrg→AzureADMyOrg',
      ]),
    );
    expect(body.cloud_roles, "the suite's own body is not changed").toBe('[]');
  });

  it('leaves values that merely look like names alone', () => {
    const out = svc.request('/cf-x-cloud-1/roles/r', {
      body: { description: 'cloud_roles', note: ['cloud_groups', 'CloudADMyOrg'], cloud_roles: 'cloud_groups' },
    });
    expect(out.body).toEqual({
      description: 'cloud_roles',
      note: ['cloud_groups', 'CloudADMyOrg'],
      azure_roles: 'cloud_groups',
    });
  });

  it('renames only inside the engine the names are declared for', () => {
    const kv = { data: { cloud_roles: 'x', last_svc_rotation: 'y', sign_in_audience: 'CloudADMyOrg' } };
    expect(svc.request('/cf-x-secret-1/data/app', { body: kv }).body).toEqual(kv);
    expect(svc.request('/cf-x-ldap-1/static-role/r', { body: { cloud_roles: 'x' } }).body).toEqual({
      cloud_roles: 'x',
    });
  });

  it('renames engine types in sys/mounts and query keys in scope', () => {
    expect(svc.request('/sys/mounts/cf-x-cloud-2', { body: { type: 'cloud', options: {} } }).body).toEqual({
      type: 'azure',
      options: {},
    });
    expect(svc.request('/sys/mounts/cf-x-kv', { body: { type: 'kv' } }).body, 'unmapped types pass').toEqual({
      type: 'kv',
    });
    expect(
      svc.request('/cf-x-cloud-1/roles/r', { body: { type: 'cloud' } }).body,
      'type outside sys/mounts is a field like any other',
    ).toEqual({ type: 'cloud' });
    expect(svc.request('/cf-x-cloud-1/roles', { query: { list: 'true', cloud_roles: 'a' } }).query).toEqual({
      list: 'true',
      azure_roles: 'a',
    });
  });

  it("answers the target's names of types, values and environment variables", () => {
    expect(svc.mountType('cloud')).toBe('azure');
    expect(svc.value('cloud', 'sign_in_audience', 'PersonalAccount')).toBe('PersonalMicrosoftAccount');
    expect(svc.field('ldap', 'last_svc_rotation')).toBe('last_vault_rotation');
    expect(svc.envName('CLOUD_TENANT_ID')).toBe('AZURE_TENANT_ID');
    expect(svc.envDocName('AZURE_TENANT_ID')).toBe('CLOUD_TENANT_ID');
    expect(svc.envName('CLOUD_ENVIRONMENT'), 'unmapped names pass').toBe('CLOUD_ENVIRONMENT');
  });
});

describe('dialect names: responses back to the documents', () => {
  it('renames keys and values back, nested and in arrays', () => {
    const body = {
      data: {
        azure_roles: [{ role_name: 'Reader', scope: '/s' }],
        azure_groups: [],
        sign_in_audience: 'AzureADMyOrg',
        tags: ['AzureADMyOrg'],
      },
    };
    const back = svc.response('/cf-x-cloud-1/roles/r', body);
    expect(back.body).toEqual({
      data: {
        cloud_roles: [{ role_name: 'Reader', scope: '/s' }],
        cloud_groups: [],
        sign_in_audience: 'CloudADMyOrg',
        tags: ['AzureADMyOrg'],
      },
    });
    expect(back.renamed).toContain('azure_roles→cloud_roles');
    expect(
      svc.response('/cf-x-cloud-1/creds/r', { mount_type: 'azure', data: { type: 'azure' } }).body,
      "the envelope's mount_type, not any field named type",
    ).toEqual({ mount_type: 'cloud', data: { type: 'azure' } });
  });

  it("maps the ldap engine's field and mount types in sys/mounts listings", () => {
    expect(
      svc.response('/cf-x-ldap-1/static-cred/r', { data: { last_vault_rotation: '2026-01-01T00:00:00Z' } }).body,
    ).toEqual({ data: { last_svc_rotation: '2026-01-01T00:00:00Z' } });
    const listing = {
      'cf-x-cloud-1/': { type: 'azure' },
      data: { 'cf-x-cloud-1/': { type: 'azure', description: 'azure' } },
    };
    expect(svc.response('/sys/mounts', listing).body).toEqual({
      'cf-x-cloud-1/': { type: 'cloud' },
      data: { 'cf-x-cloud-1/': { type: 'cloud', description: 'azure' } },
    });
  });

  it('never lets a renamed key overwrite one the target also sent', () => {
    expect(svc.response('/cf-x-cloud-1/roles/r', { data: { azure_roles: 'a', cloud_roles: 'b' } }).body).toEqual({
      data: { azure_roles: 'a', cloud_roles: 'b' },
    });
  });

  it('is the identity without names, and for the scheduler uses its own block', () => {
    const none = new NameTranslator('svc', undefined);
    expect(none.identity).toBe(true);
    expect(none.request('/cloud/roles/r', { body: { cloud_roles: 'x' } }).body).toEqual({ cloud_roles: 'x' });
    const sched = new NameTranslator('sched', names);
    expect(sched.identity).toBe(false);
    expect(sched.response('/job/x', { Job: { NomadTokenID: 'acc' } }).body).toEqual({ Job: { SchedTokenID: 'acc' } });
    expect(
      new NameTranslator('svc', { sched: names.sched }).identity,
      'the scheduler block does not rename the secrets service',
    ).toBe(true);
  });
});

describe('dialect names and redaction', () => {
  it("secrets under a renamed field are masked under the documents' name", () => {
    const back = svc.response('/cf-x-ldap-1/static-cred/r', { data: { pass: 'N0t-For-Reports', username: 'svc-app' } });
    const r = new Redactor();
    const shown = r.value(back.body) as { data: { password: string; username: string } };
    expect(shown.data.password).toBe(REDACTED);
    expect(shown.data.username).toBe('svc-app');
    expect(r.text('echo N0t-For-Reports'), 'the value is remembered like any other secret').toBe(`echo ${REDACTED}`);
  });
});

describe('dialect names over HTTP (a target that speaks the upstream names)', () => {
  let server: Server;
  let seen: { url: string; body: unknown }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body: text ? JSON.parse(text) : undefined });
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET')
          res.end(
            JSON.stringify({
              data: {
                azure_roles: [{ role_name: 'Reader', scope: '/s' }],
                sign_in_audience: 'AzureADMyOrg',
                client_secret: 'cs-upstream-1',
              },
            }),
          );
        else res.end(JSON.stringify({ data: {} }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends the target's names and hands checks the documents' names, both recorded", async () => {
    seen = [];
    const cfg = defaults();
    cfg.svc.addr = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cfg.svc.token = 'unit-token';
    const exchanges: unknown[] = [];
    const client = new ApiClient('svc', cfg, (ex) => exchanges.push(ex), svc);
    const wrote = await client.post('cf-x-cloud-1/roles/r', {
      body: { cloud_roles: '[]', sign_in_audience: 'CloudADMyOrg' },
    });
    expect(seen[0]!.body, "the wire carried the target's names").toEqual({
      azure_roles: '[]',
      sign_in_audience: 'AzureADMyOrg',
    });
    expect(wrote.request.body, 'the exchange keeps what the suite wrote').toEqual({
      cloud_roles: '[]',
      sign_in_audience: 'CloudADMyOrg',
    });
    expect(wrote.renamed).toEqual(expect.arrayContaining(['sent cloud_roles→azure_roles']));
    const read = await client.get('cf-x-cloud-1/roles/r');
    expect(read.response.body).toEqual({
      data: {
        cloud_roles: [{ role_name: 'Reader', scope: '/s' }],
        sign_in_audience: 'CloudADMyOrg',
        client_secret: 'cs-upstream-1',
      },
    });
    expect(read.renamed).toEqual(
      expect.arrayContaining([
        'received azure_roles→cloud_roles',
        'received sign_in_audience: AzureADMyOrg→CloudADMyOrg',
      ]),
    );
    expect(
      (new Redactor().value(read.response.body) as { data: { client_secret: string } }).data.client_secret,
      'redaction by name is unaffected',
    ).toBe(REDACTED);
    const mount = await client.post('sys/mounts/cf-x-cloud-2', { body: { type: 'cloud' } });
    expect(seen[2]!.body).toEqual({ type: 'azure' });
    expect(mount.request.body).toEqual({ type: 'cloud' });
    expect(exchanges).toHaveLength(3);
  });
});

describe('the shipped upstream profile', () => {
  it('loads and maps every name the documents renamed', () => {
    const cfg = loadConfig({ file: 'fixtures/profiles/upstream-names.yaml', env: {} });
    const t = new NameTranslator('svc', cfg.dialect.names);
    expect(t.mountType('cloud')).toBe('azure');
    expect(t.field('cloud', 'cloud_roles')).toBe('azure_roles');
    expect(t.field('ldap', 'last_svc_rotation')).toBe('last_vault_rotation');
    for (const v of ['CloudADMyOrg', 'CloudADMultipleOrgs', 'CloudADandPersonalAccount', 'PersonalAccount']) {
      expect(t.value('cloud', 'sign_in_audience', v), v).not.toBe(v);
    }
    for (const v of [
      'CLOUD_SUBSCRIPTION_ID',
      'CLOUD_TENANT_ID',
      'CLOUD_CLIENT_ID',
      'CLOUD_CLIENT_SECRET',
      'CLOUD_ENVIRONMENT',
    ])
      expect(t.envName(v)).toBe(v.replace('CLOUD_', 'AZURE_'));
    expect(new NameTranslator('sched', cfg.dialect.names).response('/job/x', { NomadTokenID: 'a' }).body).toEqual({
      SchedTokenID: 'a',
    });
  });

  it("every svc/sched name of the documents that carries the renamed product's word is mapped", () => {
    // The documents' renaming left these marks: `svc`/`Sched` in names, `Cloud`/`CLOUD_` prefixes.
    const docs = ['secrets-service-core.md', 'secrets-service-transit.md', 'jobs-service.md']
      .map((f) => readFileSync(`../shared/docs/${f}`, 'utf8'))
      .join('\n');
    const marked = new Set(
      docs.match(
        /\b(?:[a-z]+_svc_[a-z_]+|Sched[A-Z][A-Za-z]+|CloudAD[A-Za-z]+|PersonalAccount|cloud_[a-z]+s|CLOUD_[A-Z_]+|SVC_[A-Z_]+)\b/g,
      ) ?? [],
    );
    const profile = parseYaml(readFileSync('fixtures/profiles/upstream-names.yaml', 'utf8')) as {
      dialect: { names: NamesDialect };
    };
    const text = JSON.stringify(profile.dialect.names);
    const missing = [...marked].filter((n) => !text.includes(`"${n}"`));
    expect(missing).toEqual([]);
  });

  it("a profile may name the target's environment variables in cloud.envOverrides", () => {
    const cfg = loadConfig({
      file: 'fixtures/profiles/upstream-names.yaml',
      env: { CLOUD_ENV_OVERRIDES: '{"AZURE_TENANT_ID":"t-1"}' },
    });
    expect(cfg.cloud?.envOverrides).toEqual({ CLOUD_TENANT_ID: 't-1' });
    expect(() => loadConfig({ env: { CLOUD_ENV_OVERRIDES: '{"NO_SUCH_VAR":"x"}' } })).toThrowError(
      /cloud\.envOverrides/,
    );
  });
});
