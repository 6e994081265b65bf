/**
 * The listeners a directory test starts beside the directory: the UPN listener's rewrite of a bind
 * request's name (BER), and the silent listener that reports the first bytes it hears.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { rewriteBindName, silentListener } from '../../harness/directory/listeners.js';

const tlv = (tag: number, value: Buffer) => Buffer.concat([Buffer.from([tag, value.length]), value]);
const bind = (name: string) =>
  tlv(
    0x30,
    Buffer.concat([
      tlv(0x02, Buffer.from([7])),
      tlv(
        0x60,
        Buffer.concat([tlv(0x02, Buffer.from([3])), tlv(0x04, Buffer.from(name)), tlv(0x80, Buffer.from('pw'))]),
      ),
    ]),
  );

describe('directory listeners', () => {
  it('rewrites the name of a bind request and leaves other names and messages as they are', () => {
    const upn = (n: string) =>
      n.endsWith('@upn.example') ? `cn=${n.slice(0, -12)},ou=users,dc=example,dc=org` : undefined;
    expect(rewriteBindName(bind('svc@upn.example'), upn)).toEqual(bind('cn=svc,ou=users,dc=example,dc=org'));
    expect(rewriteBindName(bind('cn=svc,dc=example,dc=org'), upn)).toEqual(bind('cn=svc,dc=example,dc=org'));
    const search = tlv(0x30, Buffer.concat([tlv(0x02, Buffer.from([8])), tlv(0x63, Buffer.from([0x04, 0x00]))]));
    expect(rewriteBindName(search, upn)).toEqual(search);
  });

  it('accepts a connection, never answers, and reports the first bytes it hears', async () => {
    const listener = await silentListener();
    const [host, port] = listener.address.split(':');
    const socket = connect(Number(port), host);
    let answered = false;
    socket.on('data', () => {
      answered = true;
    });
    try {
      socket.write('hello');
      await listener.contacted;
      expect(answered).toBe(false);
    } finally {
      socket.destroy();
      await listener.close();
    }
  });
});
