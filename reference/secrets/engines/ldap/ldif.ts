/**
 * LDIF change records (RFC 2849) as the directory engine's templates produce them: add (the
 * default when no changetype is given), delete and modify with add/delete/replace groups.
 */
export type LdifRecord =
  | { dn: string; changetype: 'add'; attributes: { type: string; values: Buffer[] }[] }
  | { dn: string; changetype: 'delete' }
  | {
      dn: string;
      changetype: 'modify';
      changes: { operation: 'add' | 'delete' | 'replace'; type: string; values: Buffer[] }[];
    };

export class LdifError extends Error {}

interface Line {
  attr: string;
  value: Buffer;
  text: string;
}

function parseLine(line: string): Line {
  const m = /^([A-Za-z0-9;.-]+)(::?|:<)\s?(.*)$/.exec(line);
  if (!m) throw new LdifError(`malformed LDIF line "${line.slice(0, 40)}"`);
  const [, attr, sep, rest] = m;
  if (sep === ':<') throw new LdifError('URL values are not supported');
  if (sep === '::') {
    const v = rest!.trim();
    if (!/^[A-Za-z0-9+/=]*$/.test(v)) throw new LdifError(`invalid base64 value for ${attr}`);
    const buf = Buffer.from(v, 'base64');
    return { attr: attr!, value: buf, text: buf.toString('utf8') };
  }
  return { attr: attr!, value: Buffer.from(rest!, 'utf8'), text: rest! };
}

/** Splits into records of logical lines (continuations joined, comments dropped). */
function records(text: string): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    if (raw.trim() === '') {
      if (cur.length) out.push(cur);
      cur = [];
      continue;
    }
    if (raw.startsWith(' ') && cur.length) {
      cur[cur.length - 1] += raw.slice(1);
      continue;
    }
    if (raw.startsWith('#')) continue;
    cur.push(raw);
  }
  if (cur.length) out.push(cur);
  return out;
}

export function parseLdif(text: string): LdifRecord[] {
  const result: LdifRecord[] = [];
  for (const rec of records(text)) {
    // "-" separates modify groups; parseModify reads those records from the raw lines.
    let lines = rec.map((l) => (l.trim() === '-' ? { attr: '-', value: Buffer.alloc(0), text: '-' } : parseLine(l)));
    if (lines[0]?.attr.toLowerCase() === 'version') lines = lines.slice(1);
    if (!lines.length) continue;
    const first = lines[0]!;
    if (first.attr.toLowerCase() !== 'dn') throw new LdifError('each LDIF record must start with dn');
    const dn = first.text.trim();
    if (!dn) throw new LdifError('empty dn');
    let body = lines.slice(1);
    let changetype = 'add';
    if (body[0]?.attr.toLowerCase() === 'changetype') {
      changetype = body[0].text.trim().toLowerCase();
      body = body.slice(1);
    }
    if (changetype === 'add') {
      const attrs = new Map<string, Buffer[]>();
      for (const l of body) {
        if (l.attr === '-') throw new LdifError('unexpected "-" in an add record');
        const list = attrs.get(l.attr) ?? [];
        list.push(l.value);
        attrs.set(l.attr, list);
      }
      if (!attrs.size) throw new LdifError(`add record for ${dn} has no attributes`);
      result.push({ dn, changetype: 'add', attributes: [...attrs].map(([type, values]) => ({ type, values })) });
    } else if (changetype === 'delete') {
      if (body.length) throw new LdifError(`delete record for ${dn} has extra lines`);
      result.push({ dn, changetype: 'delete' });
    } else if (changetype === 'modify') {
      result.push({
        dn,
        changetype: 'modify',
        changes: parseModify(rec.slice(rec.findIndex((l) => /^changetype:/i.test(l)) + 1), dn),
      });
    } else {
      throw new LdifError(`unsupported changetype "${changetype}"`);
    }
  }
  return result;
}

function parseModify(raw: string[], dn: string): Extract<LdifRecord, { changetype: 'modify' }>['changes'] {
  const changes: Extract<LdifRecord, { changetype: 'modify' }>['changes'] = [];
  let cur: (typeof changes)[number] | undefined;
  for (const line of raw) {
    if (line.trim() === '-') {
      if (!cur) throw new LdifError(`stray "-" in modify record for ${dn}`);
      changes.push(cur);
      cur = undefined;
      continue;
    }
    const l = parseLine(line);
    if (!cur) {
      const op = l.attr.toLowerCase();
      if (op !== 'add' && op !== 'delete' && op !== 'replace')
        throw new LdifError(`unknown modify operation "${l.attr}"`);
      cur = { operation: op, type: l.text.trim(), values: [] };
      continue;
    }
    if (l.attr.toLowerCase() !== cur.type.toLowerCase())
      throw new LdifError(`attribute ${l.attr} does not match ${cur.type}`);
    cur.values.push(l.value);
  }
  if (cur) changes.push(cur);
  if (!changes.length) throw new LdifError(`modify record for ${dn} has no changes`);
  return changes;
}

/** Text that decodes from base64 to UTF-8 is taken as base64-encoded LDIF (as the real product does). */
export function decodeMaybeBase64(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (!compact || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return value;
  const buf = Buffer.from(compact, 'base64');
  const text = buf.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(buf) && !text.includes('\uFFFD')) return text;
  return value;
}
