/**
 * ECDSA over an already computed digest. node:crypto only signs messages it hashes itself, so
 * `prehashed` ECDSA needs the curve arithmetic here (NIST P-256/384/521, a = -3), in Jacobian
 * coordinates with BigInt. Signatures are DER like node's default.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import { lookupTable } from '../../../lookup-table.js';

interface Curve {
  p: bigint;
  n: bigint;
  b: bigint;
  gx: bigint;
  gy: bigint;
  bytes: number;
  bits: number;
}

const CURVES: Record<string, Curve> = lookupTable({
  'P-256': {
    p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
    n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    gx: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
    gy: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
    bytes: 32,
    bits: 256,
  },
  'P-384': {
    p: 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffffn,
    n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    gx: 0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7n,
    gy: 0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5fn,
    bytes: 48,
    bits: 384,
  },
  'P-521': {
    p: (1n << 521n) - 1n,
    n: 0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
    b: 0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00n,
    gx: 0x00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66n,
    gy: 0x011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650n,
    bytes: 66,
    bits: 521,
  },
});

type J = [bigint, bigint, bigint];
const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;

function inv(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, m);
}

function dbl(P: J, p: bigint): J {
  const [X, Y, Z] = P;
  if (Y === 0n || Z === 0n) return [0n, 1n, 0n];
  const Z2 = (Z * Z) % p;
  const M = mod(3n * (X - Z2) * (X + Z2), p);
  const Y2 = (Y * Y) % p;
  const S = (4n * X * Y2) % p;
  const X3 = mod(M * M - 2n * S, p);
  const Y3 = mod(M * (S - X3) - 8n * Y2 * Y2, p);
  const Z3 = (2n * Y * Z) % p;
  return [X3, Y3, Z3];
}

function add(P: J, Q: J, p: bigint): J {
  if (P[2] === 0n) return Q;
  if (Q[2] === 0n) return P;
  const Z1Z1 = (P[2] * P[2]) % p;
  const Z2Z2 = (Q[2] * Q[2]) % p;
  const U1 = (P[0] * Z2Z2) % p;
  const U2 = (Q[0] * Z1Z1) % p;
  const S1 = (P[1] * Q[2] * Z2Z2) % p;
  const S2 = (Q[1] * P[2] * Z1Z1) % p;
  if (U1 === U2) return S1 === S2 ? dbl(P, p) : [0n, 1n, 0n];
  const H = mod(U2 - U1, p);
  const R = mod(S2 - S1, p);
  const H2 = (H * H) % p;
  const H3 = (H2 * H) % p;
  const X3 = mod(R * R - H3 - 2n * U1 * H2, p);
  const Y3 = mod(R * (U1 * H2 - X3) - S1 * H3, p);
  const Z3 = (H * P[2] * Q[2]) % p;
  return [X3, Y3, Z3];
}

function mul(k: bigint, P: J, p: bigint): J {
  let R: J = [0n, 1n, 0n];
  for (let i = BigInt(k.toString(2).length - 1); i >= 0n; i--) {
    R = dbl(R, p);
    if ((k >> i) & 1n) R = add(R, P, p);
  }
  return R;
}

function affineX(P: J, p: bigint): bigint {
  const zi = inv(P[2], p);
  return (P[0] * zi * zi) % p;
}

const toBig = (b: Buffer) => (b.length ? BigInt(`0x${b.toString('hex')}`) : 0n);
const b64u = (s: string) => Buffer.from(s, 'base64url');

/** Digest to integer, keeping the leftmost `bits` bits (FIPS 186-4 section 6.4). */
function digestInt(digest: Buffer, c: Curve): bigint {
  let z = toBig(digest);
  const excess = digest.length * 8 - c.bits;
  if (excess > 0) z >>= BigInt(excess);
  return z;
}

function derInt(x: bigint): Buffer {
  let hex = x.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let b = Buffer.from(hex, 'hex');
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return Buffer.concat([Buffer.from([0x02]), derLen(b.length), b]);
}

function derLen(n: number): Buffer {
  return n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
}

function curveOf(key: KeyObject): Curve {
  const jwk = key.export({ format: 'jwk' });
  const c = CURVES[jwk.crv ?? ''];
  if (!c) throw new Error('unsupported curve');
  return c;
}

export function signDigest(privateKey: KeyObject, digest: Buffer, encoding: 'der' | 'ieee-p1363'): Buffer {
  const c = curveOf(privateKey);
  const d = toBig(b64u(privateKey.export({ format: 'jwk' }).d!));
  const z = digestInt(digest, c);
  for (;;) {
    const k = mod(toBig(randomBytes(c.bytes + 8)), c.n - 1n) + 1n;
    const r = mod(affineX(mul(k, [c.gx, c.gy, 1n], c.p), c.p), c.n);
    if (r === 0n) continue;
    const s = mod(inv(k, c.n) * (z + r * d), c.n);
    if (s === 0n) continue;
    if (encoding === 'ieee-p1363') {
      const fix = (x: bigint) => Buffer.from(x.toString(16).padStart(c.bytes * 2, '0'), 'hex');
      return Buffer.concat([fix(r), fix(s)]);
    }
    const body = Buffer.concat([derInt(r), derInt(s)]);
    return Buffer.concat([Buffer.from([0x30]), derLen(body.length), body]);
  }
}

function parseDer(sig: Buffer): [bigint, bigint] | undefined {
  let i = 0;
  const len = (): number => {
    const first = sig[i++]!;
    if (first < 0x80) return first;
    let n = 0;
    for (let k = 0; k < (first & 0x7f); k++) n = (n << 8) | sig[i++]!;
    return n;
  };
  if (sig[i++] !== 0x30) return undefined;
  len();
  const ints: bigint[] = [];
  for (let k = 0; k < 2; k++) {
    if (sig[i++] !== 0x02) return undefined;
    const l = len();
    ints.push(toBig(sig.subarray(i, i + l)));
    i += l;
  }
  return [ints[0]!, ints[1]!];
}

export function verifyDigest(
  publicKey: KeyObject,
  digest: Buffer,
  sig: Buffer,
  encoding: 'der' | 'ieee-p1363',
): boolean {
  const c = curveOf(publicKey);
  const jwk = publicKey.export({ format: 'jwk' });
  const Q: J = [toBig(b64u(jwk.x!)), toBig(b64u(jwk.y!)), 1n];
  let rs: [bigint, bigint] | undefined;
  if (encoding === 'ieee-p1363') {
    if (sig.length !== c.bytes * 2) return false;
    rs = [toBig(sig.subarray(0, c.bytes)), toBig(sig.subarray(c.bytes))];
  } else {
    try {
      rs = parseDer(sig);
    } catch {
      rs = undefined;
    }
  }
  if (!rs) return false;
  const [r, s] = rs;
  if (r <= 0n || r >= c.n || s <= 0n || s >= c.n) return false;
  const w = inv(s, c.n);
  const u1 = mod(digestInt(digest, c) * w, c.n);
  const u2 = mod(r * w, c.n);
  const X = add(mul(u1, [c.gx, c.gy, 1n], c.p), mul(u2, Q, c.p), c.p);
  if (X[2] === 0n) return false;
  return mod(affineX(X, c.p), c.n) === r;
}
