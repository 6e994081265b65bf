/**
 * Finds the processes a run left behind. A run under test gets a unique mark in its environment
 * (LEFTOVER_MARK); every process it starts inherits it, whatever its command line, so after the
 * run `/proc/<pid>/environ` names exactly the run's survivors, with the ports they still listen on.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';

export const MARK_VAR = 'LEFTOVER_MARK';

export const newMark = (): string => `leftover-${randomBytes(6).toString('hex')}`;

export interface Survivor {
  pid: number;
  command: string;
  listening: number[];
}

/** Listening TCP ports by socket inode, from /proc/net/tcp and tcp6. */
function listeningSockets(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // st 0A is LISTEN; local address is ip:port in hex; inode is column 9.
      if (cols[3] === '0A' && cols[1] && cols[9]) out.set(cols[9], parseInt(cols[1].split(':')[1]!, 16));
    }
  }
  return out;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

/** Processes (other than this one) whose environment carries the mark. Linux only (/proc). */
export function survivors(mark: string): Survivor[] {
  const needle = `${MARK_VAR}=${mark}`;
  const sockets = listeningSockets();
  const out: Survivor[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (!read(`/proc/${pid}/environ`).split('\0').includes(needle)) continue;
    const status = read(`/proc/${pid}/stat`);
    if (/^\d+ \(.*\) Z /.test(status)) continue; // a zombie holds nothing; its parent reaps it
    const listening: number[] = [];
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const port = inode ? sockets.get(inode) : undefined;
        if (port !== undefined) listening.push(port);
      }
    } catch {
      // The process ended while it was read.
    }
    out.push({ pid, command: read(`/proc/${pid}/cmdline`).split('\0').join(' ').trim(), listening });
  }
  return out;
}

/** Waits (bounded) until no marked process is left; returns those still there at the deadline. */
export async function settle(mark: string, timeoutMs = 5000): Promise<Survivor[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = survivors(mark);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Cleanup after a red test: ends every marked process so a failure does not leak either. */
export function killMarked(mark: string): void {
  for (const s of survivors(mark)) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

export const describeSurvivors = (left: Survivor[]): string =>
  left
    .map(
      (s) =>
        `pid ${s.pid}${s.listening.length ? ` listening on ${s.listening.join(',')}` : ''}: ${s.command.slice(0, 200)}`,
    )
    .join('\n');
