// Tables keyed by names a debugged program chose: its locals, attributes, globals, function and
// file names, watch expressions. A plain object answers `constructor`, `toString`, `valueOf` or
// `hasOwnProperty` from its prototype, and `obj['__proto__'] = v` replaces the prototype instead of
// storing v, so a program's name is never looked up with `obj[name]` or `name in obj`: only among a
// table's own entries (`own`, `hasOwnName`), and tables built from such names have no prototype
// (`nameTable`), which JSON writes the same as a plain object.

/** A table with no prototype holding `entries`: every key, `__proto__` included, is an entry. */
export function nameTable<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const table = Object.create(null) as Record<string, V>;
  for (const [name, value] of entries) table[name] = value;
  return table;
}

/** The table's own entry `name` (never its prototype's), or undefined. */
export function own<V>(table: Readonly<Record<string, V>> | null | undefined, name: string): V | undefined {
  return table != null && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
}

/** Whether `name` is one of the table's own entries. */
export function hasOwnName(table: object | null | undefined, name: string): boolean {
  return table != null && Object.prototype.hasOwnProperty.call(table, name);
}
