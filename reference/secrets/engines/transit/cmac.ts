/** AES-CMAC (RFC 4493 / NIST SP 800-38B); node:crypto has no CMAC, so it is built on AES-ECB. */
import { createCipheriv } from 'node:crypto';

function aesBlock(key: Buffer, block: Buffer): Buffer {
  const c = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]);
}

function shiftLeft(b: Buffer): Buffer {
  const out = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) out[i] = ((b[i]! << 1) | (i < 15 ? b[i + 1]! >> 7 : 0)) & 0xff;
  if (b[0]! & 0x80) out[15]! ^= 0x87;
  return out;
}

export function aesCmac(key: Buffer, msg: Buffer): Buffer {
  const k1 = shiftLeft(aesBlock(key, Buffer.alloc(16)));
  const k2 = shiftLeft(k1);
  const n = Math.max(1, Math.ceil(msg.length / 16));
  const complete = msg.length > 0 && msg.length % 16 === 0;
  const last = Buffer.alloc(16);
  const tail = msg.subarray((n - 1) * 16);
  tail.copy(last);
  if (!complete) last[tail.length] = 0x80;
  const sub = complete ? k1 : k2;
  for (let i = 0; i < 16; i++) last[i]! ^= sub[i]!;
  let x: Buffer = Buffer.alloc(16);
  for (let i = 0; i < n - 1; i++) {
    const blk = msg.subarray(i * 16, i * 16 + 16);
    for (let j = 0; j < 16; j++) x[j]! ^= blk[j]!;
    x = aesBlock(key, x);
  }
  for (let j = 0; j < 16; j++) x[j]! ^= last[j]!;
  return aesBlock(key, x);
}
