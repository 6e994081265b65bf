/**
 * The encryption engine (transit): named keys with versions and real cryptography from node:crypto.
 * The engine routes each request to the part of the transit document it belongs to: the key
 * lifecycle (lifecycle.ts), import (import.ts), export, backup and certificates (export.ts), data
 * operations (data.ts); what they share (the keys, their locks, the rules) is shared.ts. Key
 * material handling is in keys.ts, per-item operations in ops.ts, batches in batch.ts, BYOK wrapping
 * in byok.ts, CSR and chains in certs.ts. The documents' rules are named in rules.ts and reached
 * through `rules`; the faults and variants replace them in one table, switches/, so nothing here
 * asks which switch is on.
 */
import type { Engine, EngineContext, EngineFactory, EngineRequest, EngineResponse } from '../../engine.js';
import { badRequest, unsupportedPath } from '../../errors.js';
import { DataOperations } from './data.js';
import { KeyExport } from './export.js';
import { KeyImport } from './import.js';
import { KeyLifecycle } from './lifecycle.js';
import { checkFields, type Body } from './params.js';
import { type Call, type Endpoint, Shared } from './shared.js';

class TransitEngine implements Engine {
  private readonly s: Shared;
  /** The endpoints by the path's first segment, or `keys/<action>` under keys/:name (no prototype: a Map). */
  private readonly routes: Map<string, Endpoint>;

  constructor(ctx: EngineContext) {
    this.s = new Shared(ctx);
    const parts = [new KeyLifecycle(this.s), new KeyImport(this.s), new KeyExport(this.s), new DataOperations(this.s)];
    this.routes = new Map(parts.flatMap((p) => p.routes()));
  }

  async exists(path: string): Promise<boolean> {
    const seg = path.split('/');
    if (seg[0] === 'encrypt' && seg.length === 2) {
      // With upsert disabled the write is an update, so the caller's create capability is irrelevant.
      if (this.s.rules.encryptIsUpdate(this.s.disableUpsert)) return true;
      return this.s.rules.encryptKeyExists(this.s.keys.has(seg[1]!));
    }
    if (seg[0] === 'keys' && seg.length === 2) return this.s.keys.has(seg[1]!);
    return true;
  }

  /** Routes the request; the answer and any error leave through the rules (the one response point). */
  async handle(req: EngineRequest): Promise<EngineResponse> {
    const seg = req.path.split('/').filter((s) => s !== '');
    let res: EngineResponse;
    try {
      this.refuseAlgorithms(seg, req.body);
      res = await this.route(req, seg);
    } catch (err) {
      throw this.s.rules.failure(err);
    }
    return this.s.rules.answer({ method: req.method, seg, res, body: req.body ?? {} });
  }

  /** Hash algorithms the service does not offer (the document's list is "not shown"). */
  private refuseAlgorithms(seg: string[], body: Body): void {
    const [head, a, b] = seg;
    const named = [head === 'hash' ? a : b, body.algorithm, body.hash_algorithm].filter(
      (x): x is string => typeof x === 'string',
    );
    const refused = this.s.rules.refusedHash(head, named);
    if (refused) throw badRequest(`unsupported hash algorithm ${JSON.stringify(refused)}`);
  }

  private async route(req: EngineRequest, seg: string[]): Promise<EngineResponse> {
    const body = req.body;
    const post = req.method === 'POST' || req.method === 'PUT';
    if (post && body) {
      try {
        checkFields(body);
      } catch (err) {
        throw this.s.rules.wrongFieldType(err, seg);
      }
    }
    const [head, , action] = seg;
    const endpoint = this.routes.get(head === 'keys' && seg.length === 3 ? `keys/${action}` : (head ?? ''));
    const call: Call = { req, seg, body, post };
    const answer = await endpoint?.(call);
    if (answer) return answer;
    throw unsupportedPath();
  }

  help(path: string): string {
    return `## transit: ${path || '/'}\n\nThe encryption engine: named keys, encrypt/decrypt/rewrap, datakeys, random, hash, HMAC, sign/verify, CMAC, export, backup and restore, BYOK import.`;
  }
}

export const factory: EngineFactory = (ctx) => new TransitEngine(ctx);
