/**
 * A constant table that requests name entries of (hash algorithms, key types, curves, schemas):
 * without a prototype, so a name like "toString", "constructor" or "__proto__" finds nothing and
 * is refused as unknown, instead of finding an inherited function and failing later with a 500.
 */
export function lookupTable<K extends string, V>(entries: Record<K, V>): Readonly<Record<K, V>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<K, V>, entries));
}
