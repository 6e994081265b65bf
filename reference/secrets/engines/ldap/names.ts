/** Hierarchical names (roles and sets with slashes): the keys one LIST level shows. */
export function listLevel(names: Iterable<string>, prefix: string): string[] {
  const base = prefix ? `${prefix.replace(/\/+$/, '')}/` : '';
  const keys = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(base)) continue;
    const rest = name.slice(base.length);
    if (!rest) continue;
    const slash = rest.indexOf('/');
    keys.add(slash >= 0 ? rest.slice(0, slash + 1) : rest);
  }
  return [...keys].sort();
}
