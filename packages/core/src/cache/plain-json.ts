/** Plain JSON values: what `JSON.parse(JSON.stringify(value))` gives back unchanged, so any CacheStore can hold them. */

/** Deeper values read as not plain, so a cyclic value ends the walk instead of looping. */
const MAX_DEPTH = 512;

/**
 * True when `value` is null, a string, a boolean, a finite number other than -0, or an array or plain object of such
 * values with no undefined members or holes. Iterative, with its own stack: a deeply nested JSON column cannot overflow
 * the call stack of a read.
 */
export function isPlainJson(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const next = values.pop();
    const depth = depths.pop()!;
    switch (typeof next) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (Number.isFinite(next) && !Object.is(next, -0)) continue;
        return false;
      case 'object':
        break;
      default:
        return false;
    }
    if (next === null) continue;
    if (depth >= MAX_DEPTH) return false;
    if (Array.isArray(next)) {
      // An index loop, not for-of over keys: a hole reads as undefined, which JSON turns into null.
      for (let i = 0; i < next.length; i++) {
        values.push(next[i]);
        depths.push(depth + 1);
      }
      continue;
    }
    const prototype = Object.getPrototypeOf(next) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    const record = next as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      values.push(record[key]);
      depths.push(depth + 1);
    }
  }
  return true;
}

/**
 * `value` as JSON would carry it (`toJSON` applied, undefined members dropped, non-finite numbers null): the value itself
 * when it is already plain, so the common case copies nothing. Throws where `JSON.stringify` does (a bigint, a cycle).
 */
export function toPlainJson(value: unknown): unknown {
  if (isPlainJson(value)) return value;
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : JSON.parse(text);
}
