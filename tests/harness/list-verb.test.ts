import { describe, expect, it } from 'vitest';
import { rewriteListVerb, LIST_MARKER_HEADER } from '../../reference/secrets/list-verb.js';

describe("LIST verb rewriting in front of Node's HTTP parser", () => {
  it('rewrites a LIST request line into GET plus a marker header', () => {
    const out = rewriteListVerb(Buffer.from('LIST /v1/secret/metadata/ HTTP/1.1\r\nHost: x\r\n\r\n')).toString(
      'latin1',
    );
    expect(out.startsWith(`GET /v1/secret/metadata/ HTTP/1.1\r\n${LIST_MARKER_HEADER}: LIST\r\n`)).toBe(true);
  });

  it('rewrites a pipelined second request', () => {
    const out = rewriteListVerb(
      Buffer.from('GET /a HTTP/1.1\r\nHost: x\r\n\r\nLIST /b HTTP/1.1\r\nHost: x\r\n\r\n'),
    ).toString('latin1');
    expect(out).toContain(`\r\n\r\nGET /b HTTP/1.1\r\n${LIST_MARKER_HEADER}: LIST\r\n`);
  });

  it('leaves bodies that merely contain the word LIST alone', () => {
    const text = 'POST /a HTTP/1.1\r\nContent-Length: 9\r\n\r\nLIST this';
    expect(rewriteListVerb(Buffer.from(text)).toString('latin1')).toBe(text);
  });
});
