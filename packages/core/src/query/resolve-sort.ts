/** Resolves `sort` shorthand (`-pages,title`) against the sortable fields and appends the primary-key tie-breaker. */
import { suggestion } from '../config/did-you-mean';
import type { SortKey } from '../persistence/query-ast';
import type { QueryErrors } from '../errors/query-errors';
import { markClientSort } from './client-named';

export interface SortAllowlist {
  readonly fields: ReadonlySet<string>;
  readonly primaryKeys: readonly string[];
}

/** Parses shorthand keys; unknown or repeated fields go to `errors` under `param`. */
export function parseSortKeys(
  keys: readonly string[],
  allowlist: SortAllowlist,
  errors: QueryErrors,
  param = 'sort',
): SortKey[] {
  const out: SortKey[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    const descending = key.startsWith('-');
    const field = descending || key.startsWith('+') ? key.slice(1) : key;
    if (field.length === 0) {
      errors.add(param, 'malformed', `${param} has an empty key. Write ${param}=-pages,title.`);
    } else if (!allowlist.fields.has(field)) {
      errors.add(
        param,
        'field_not_sortable',
        `'${field}' is not a sortable field.${suggestion(field, allowlist.fields)}`,
      );
    } else if (seen.has(field)) {
      errors.add(param, 'repeated', `'${field}' is named twice in ${param}. Name each field once.`);
    } else {
      seen.add(field);
      out.push({ field, direction: descending ? 'desc' : 'asc' });
    }
  }
  if (param === 'sort') markClientSort(out);
  return out;
}

/** Forced keys first, then the client's keys not already forced, then the primary key so pages are stable. */
export function finishSort(
  forced: readonly SortKey[],
  requested: readonly SortKey[],
  primaryKeys: readonly string[],
): SortKey[] {
  const out = [...forced];
  const named = new Set(out.map((key) => key.field));
  for (const key of requested) {
    if (named.has(key.field)) continue;
    named.add(key.field);
    out.push(key);
  }
  for (const field of primaryKeys) if (!named.has(field)) out.push({ field, direction: 'asc' });
  return out;
}

/** Splits the wire value `-pages,title`. */
export function splitSortParam(value: string): string[] {
  return value.split(',').map((key) => key.trim());
}
