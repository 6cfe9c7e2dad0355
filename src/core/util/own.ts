/**
 * A table lookup by a name from outside: only the table's own keys count, so "constructor", "toString"
 * or "__proto__" (names every plain object inherits) are unknown names, not functions taken as entries.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
