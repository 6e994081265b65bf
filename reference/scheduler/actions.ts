/**
 * The action stream: GET /v1/job/:job_id/action upgraded to a WebSocket. With ws_handshake=true
 * the first client frame must be `{version: 1, auth_token}`; `tty_size` frames are accepted and
 * ignored; there are no stdin frames. The server answers with stdout data frames (base64), one
 * stdout close frame and one exited frame, then closes normally.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { SchedError } from './errors.js';
import type { Job } from './job.js';
import { documented, type SchedulerRules } from './rules.js';

export interface ActionTarget {
  command: string;
  args: string[];
  tty: boolean;
  handshake: boolean;
  /** Checks the handshake token; throws SchedError (403) when it may not run the action. */
  authorize(token: string): void;
}

/** Close codes: 4000 + the HTTP status the failure would have had. */
const closeCode = (status: number) => 4000 + status;
const HANDSHAKE_TIMEOUT_MS = 5000;
const TTY_SETTLE_MS = 50;

/**
 * What the simulated task prints: echo prints its arguments, anything else a line naming the
 * command. With a terminal (`terminal`), newlines become CR LF and the prompt adds colour resets.
 */
function output(command: string, args: string[], terminal: boolean): string {
  const base = command.split('/').pop() ?? command;
  const text = base === 'echo' ? `${args.join(' ')}\n` : `${[command, ...args].join(' ')}: ok\n`;
  return terminal ? `\u001b[0m${text.replace(/\n/g, '\r\n')}` : text;
}

export class ActionStreams {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

  constructor(private readonly rules: SchedulerRules = documented) {}

  /** What the action prints (the stream's data, decoded). */
  outputOf(command: string, args: string[], tty: boolean): string {
    return output(command, args, this.rules.actionTerminal(tty) && this.rules.actionTtyControlSequences);
  }

  /** Upgrades the connection and runs the action; call only after the request was validated. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: ActionTarget): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.run(ws, target));
  }

  private run(ws: WebSocket, target: ActionTarget): void {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      this.stream(ws, target);
    };
    const timer = setTimeout(() => {
      if (!started) ws.close(closeCode(400), 'no handshake frame received');
    }, HANDSHAKE_TIMEOUT_MS);
    timer.unref();
    ws.on('message', (data) => {
      if (!started && !target.handshake && !this.rules.actionTtySizeAccepted && data.toString().includes('tty_size')) {
        ws.close(closeCode(400), 'unexpected frame');
        return;
      }
      if (started || !target.handshake) return; // tty_size frames and anything after the start are ignored
      let frame: Job;
      try {
        frame = JSON.parse(data.toString()) as Job;
      } catch {
        ws.close(closeCode(400), 'first frame must be JSON');
        return;
      }
      const field = this.rules.actionAuthFrameField;
      if (frame === null || typeof frame !== 'object' || frame.version !== 1 || typeof frame[field] !== 'string') {
        ws.close(closeCode(400), `first frame must be {"version": 1, "${field}": "..."}`);
        return;
      }
      if (this.rules.actionHandshakeChecked) {
        try {
          target.authorize(frame[field]);
        } catch (err) {
          const status = err instanceof SchedError ? err.status : 500;
          ws.close(closeCode(status), err instanceof SchedError ? err.message : 'internal error');
          return;
        }
      }
      clearTimeout(timer);
      start();
    });
    ws.on('close', () => clearTimeout(timer));
    ws.on('error', () => clearTimeout(timer));
    if (!target.handshake) {
      clearTimeout(timer);
      // With a terminal, give the client's first tty_size frame a moment to arrive, as a shell would.
      if (target.tty) setTimeout(start, TTY_SETTLE_MS).unref();
      else setImmediate(start);
    }
  }

  private stream(ws: WebSocket, target: ActionTarget): void {
    const send = (frame: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const bytes = Buffer.from(this.outputOf(target.command, target.args, target.tty), 'utf8');
    // Two chunks, so clients must join data frames rather than expect one.
    const half = Math.ceil(bytes.length / 2);
    // Variant: frames the document does not list (the real stream also carries stderr).
    const extra = this.rules.actionExtraFrames;
    if (extra) send({ stderr: { data: '' } });
    for (const chunk of [bytes.subarray(0, half), bytes.subarray(half)])
      if (chunk.length) send({ stdout: { data: chunk.toString(this.rules.actionDataEncoding) } });
    if (!this.rules.actionStreamEnds) {
      // The output and its close frame, then nothing: the stream stays open until the client goes.
      send({ stdout: { close: true } });
      return;
    }
    const close = () => {
      if (this.rules.actionSendsClose) send({ stdout: { close: true } });
    };
    const exited = () => {
      if (this.rules.actionSendsExited) send({ exited: true, result: {} });
    };
    if (!this.rules.actionCloseBeforeExit) {
      exited();
      close();
    } else {
      close();
      if (extra) send({ stderr: { close: true } });
      exited();
    }
    ws.close(1000);
  }

  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }
}
