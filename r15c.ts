import { specRegistry } from './harness/spec/registry.js';
import { objectShape, typesOf } from './harness/robustness/schema.js';
const r = await specRegistry();
const seen = new Map<string, Set<string>>();
for (const op of r.operations.filter(o => o.file === process.argv[2])) {
  const s = (op.op.requestBody as any)?.content?.['application/json']?.schema; if (!s) continue;
  for (const [k, v] of Object.entries(objectShape(s).properties)) { const t = [...(typesOf(v as any) ?? ['any'])].sort().join('|') + ((v as any).minimum !== undefined ? `>=${(v as any).minimum}` : ''); (seen.get(k) ?? seen.set(k, new Set()).get(k))!.add(t); }
}
for (const [k, v] of [...seen].sort()) console.log(k, [...v].join(' / '));
