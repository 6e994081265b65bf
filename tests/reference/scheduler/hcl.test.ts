import { describe, expect, it } from 'vitest';
import { parseJobHcl } from '../../../reference/scheduler/hcl.js';
import { parseDuration } from '../../../reference/scheduler/hcl-blocks.js';

const HCL = `
variable "image" {
  default = "redis:7"
}
job "cache" {
  type        = "service"
  datacenters = ["dc1"]
  meta {
    team = "core"
  }
  group "cache" {
    count = 2
    network {
      port "db" {
        to = 6379
      }
    }
    service {
      name = "redis"
      port = "db"
    }
    task "redis" {
      driver       = "docker"
      kill_timeout = "1m30s"
      config {
        image = "\${var.image}"
      }
      action "ping" {
        command = "/usr/bin/redis-cli"
        args    = ["ping"]
      }
    }
  }
}
`;

describe('parseDuration', () => {
  it('reads Go-style durations as nanoseconds', () => {
    expect(parseDuration('5s', 'x')).toBe(5e9);
    expect(parseDuration('1m30s', 'x')).toBe(90e9);
    expect(parseDuration('250ms', 'x')).toBe(250e6);
    expect(parseDuration('1h', 'x')).toBe(3600e9);
    expect(() => parseDuration('5 seconds', 'x')).toThrow();
  });
});

describe('parseJobHcl', () => {
  it('maps blocks to the API job shape', async () => {
    const job = await parseJobHcl({ JobHCL: HCL, Canonicalize: false, Variables: '' });
    expect(job).toMatchObject({
      ID: 'cache',
      Name: 'cache',
      Type: 'service',
      Datacenters: ['dc1'],
      Meta: { team: 'core' },
      Priority: null,
    });
    const g = job.TaskGroups[0];
    expect(g).toMatchObject({ Name: 'cache', Count: 2, Services: [{ Name: 'redis', PortLabel: 'db' }] });
    expect(g.Networks[0].DynamicPorts).toEqual([{ Label: 'db', Value: 0, To: 6379, HostNetwork: 'default' }]);
    expect(g.Tasks[0]).toMatchObject({
      Name: 'redis',
      Driver: 'docker',
      KillTimeout: 90e9,
      Config: { image: 'redis:7' },
    });
    expect(g.Tasks[0].Actions).toEqual([{ Name: 'ping', Command: '/usr/bin/redis-cli', Args: ['ping'] }]);
  });

  it('Variables override variable defaults', async () => {
    const job = await parseJobHcl({ JobHCL: HCL, Canonicalize: false, Variables: 'image = "redis:8"\n' });
    expect(job.TaskGroups[0].Tasks[0].Config.image).toBe('redis:8');
  });

  it('Canonicalize fills defaults', async () => {
    const job = await parseJobHcl({ JobHCL: HCL, Canonicalize: true, Variables: '' });
    expect(job).toMatchObject({ Priority: 50, Region: 'global', Namespace: 'default' });
  });

  it('text that does not parse is a 400', async () => {
    await expect(parseJobHcl({ JobHCL: 'job "x" {', Canonicalize: false, Variables: '' })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('an unset variable is a 400', async () => {
    await expect(
      parseJobHcl({ JobHCL: 'job "x" {\n  type = "${var.nope}"\n}', Canonicalize: false, Variables: '' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
