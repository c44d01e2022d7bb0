/**
 * `cursor` (keyset): a page continues after the last row of the previous one. The token is opaque base64url JSON of
 * the sort it was issued for and the boundary row's sort values; the sort must end in the primary key.
 */
import { coerceFilterValue } from '../query/coerce-filter-value';
import type { FilterNode, SortKey } from '../query/query-ast';
import type { Row } from '../persistence/repository-adapter';
import { readPageInteger, type PageContext, type PagePlan, type PaginationStrategy } from './pagination-strategy';

interface CursorToken {
  /** The sort the cursor was issued for. */
  readonly s: string;
  /** The boundary row's values of each sort key. */
  readonly v: readonly unknown[];
}

export const CursorPaginationStrategy: PaginationStrategy = {
  name: 'cursor',
  params: ['limit', 'cursor'],
  plan({ params, settings, errors, context }): PagePlan {
    const limit = Math.min(
      readPageInteger(params.get('limit'), 'limit', errors, 1) ?? settings.defaultLimit,
      settings.maxLimit,
    );
    const signature = signatureOf(context.sort);
    if (!checkSort(context, errors)) return { limit, offset: 0, reportedLimit: limit, reportedOffset: 0 };
    const token = params.get('cursor');
    const after = token === undefined ? undefined : readCursor(token, signature, context, errors);
    return {
      limit: limit + 1,
      offset: 0,
      reportedLimit: limit,
      reportedOffset: 0,
      after,
      probe: true,
      finish: (rows) => {
        const more = rows.length > limit;
        const page = more ? rows.slice(0, limit) : rows;
        const last = page[page.length - 1];
        return { rows: page, meta: { nextCursor: more && last ? writeCursor(signature, context.sort, last) : null } };
      },
    };
  },
};

/** The sort must end in the primary key, and every key must be a plain column on the three allowlists. */
function checkSort(context: PageContext, errors: { add(param: string, code: string, detail: string): void }): boolean {
  const [pk] = context.primaryKeys;
  const last = context.sort[context.sort.length - 1];
  if (context.primaryKeys.length !== 1 || last?.field !== pk) {
    errors.add(
      'sort',
      'cursor_sort',
      `A cursor needs a sort that ends in the primary key '${pk}'. Add ${pk} as the last sort key.`,
    );
    return false;
  }
  for (const key of context.sort) {
    const why = context.refuseKey(key.field);
    if (why) {
      errors.add('sort', 'cursor_sort', `'${key.field}' cannot carry a cursor: ${why}.`);
      return false;
    }
  }
  return true;
}

function readCursor(
  token: string,
  signature: string,
  context: PageContext,
  errors: { add(param: string, code: string, detail: string): void },
): FilterNode | undefined {
  const invalid = (detail: string) => {
    errors.add('cursor', 'invalid_cursor', `${detail} Restart from the first page (send no cursor).`);
    return undefined;
  };
  let parsed: CursorToken;
  try {
    parsed = JSON.parse(fromBase64Url(token)) as CursorToken;
  } catch {
    return invalid('The cursor is malformed.');
  }
  if (!parsed || typeof parsed.s !== 'string' || !Array.isArray(parsed.v) || parsed.v.length !== context.sort.length) {
    return invalid('The cursor is malformed.');
  }
  if (parsed.s !== signature) return invalid('The cursor was issued for a different sort.');
  const values: unknown[] = [];
  for (const [index, key] of context.sort.entries()) {
    const raw = parsed.v[index];
    if (raw === null) {
      errors.add(
        'cursor',
        'null_boundary',
        `The cursor stops on a row whose '${key.field}' is null, where keyset paging cannot continue. Sort by a column without nulls.`,
      );
      return undefined;
    }
    const coerced = coerceFilterValue(context.columns.get(key.field)!, raw);
    if (!coerced.ok) return invalid('The cursor is malformed.');
    values.push(coerced.value);
  }
  return keysetAfter(context.sort, values);
}

/** (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ...: the rows strictly after the boundary in the sort's order. */
function keysetAfter(sort: readonly SortKey[], values: readonly unknown[]): FilterNode {
  const branches: FilterNode[] = sort.map((key, index) => {
    const equal: FilterNode[] = sort
      .slice(0, index)
      .map((prior, i) => ({ kind: 'condition', field: prior.field, operator: 'eq', value: values[i] }));
    const beyond: FilterNode = {
      kind: 'condition',
      field: key.field,
      operator: key.direction === 'asc' ? 'gt' : 'lt',
      value: values[index],
    };
    return equal.length === 0 ? beyond : { kind: 'and', children: [...equal, beyond] };
  });
  return branches.length === 1 ? branches[0]! : { kind: 'or', children: branches };
}

function writeCursor(signature: string, sort: readonly SortKey[], row: Row): string {
  const values = sort.map((key) => {
    const value = row[key.field];
    return value instanceof Date ? value.toISOString() : (value ?? null);
  });
  return toBase64Url(JSON.stringify({ s: signature, v: values } satisfies CursorToken));
}

/** base64url of UTF-8 text, without Node's Buffer (core runs anywhere). */
function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(token: string): string {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(token)) throw new Error('not base64url');
  const binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

function signatureOf(sort: readonly SortKey[]): string {
  return sort.map((key) => `${key.field}:${key.direction}`).join(',');
}
