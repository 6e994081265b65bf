import type { SpecObservation } from '../spec/findings.js';

/** One request/response pair as the harness saw it: what checks read and what reports show. */
export interface ExchangeRequest {
  method: string;
  /** Full URL as sent. */
  url: string;
  /** Path relative to the API root, without query (`/secret/data/x`, `/jobs`). */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /**
   * A body sent as is (`rawBody`), when it is text of at most RAW_KEPT characters: what a
   * reproduction sends (`body` then only says its size).
   */
  raw?: string;
}

/** Longest raw text body an exchange keeps for its reproduction. */
export const RAW_KEPT = 2000;

export interface ExchangeResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, otherwise the text ('' when empty). */
  body: unknown;
  text: string;
  contentType: string;
}

export interface Exchange {
  api: 'svc' | 'sched';
  request: ExchangeRequest;
  response: ExchangeResponse;
  durationMs: number;
  /** The spec operation matched, when any (`file METHOD template`). */
  operation?: string;
  /**
   * Names the dialect translated (`sent cloud_roles→azure_roles`): request and response bodies
   * here are in the documents' names, the wire carried the target's.
   */
  renamed?: string[];
  /** What the spec check observed (its findings are reported under the operation's schema requirement). */
  spec?: SpecObservation;
}

/** Case-insensitive header read. */
export function header(ex: Exchange, name: string): string | undefined {
  return ex.response.headers[name.toLowerCase()];
}
