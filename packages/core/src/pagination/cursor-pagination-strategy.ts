/**
 * `cursor` (keyset): a page continues after the last row of the previous one. The token is opaque base64url JSON of
 * the sort it was issued for and the boundary row's sort values (date-times in the database's own spelling, so the
 * boundary is exact at any precision); the sort must end in the primary key.
 */
import type { FilterNode, SortKey } from '../persistence/query-ast';
import type { Row } from '../persistence/repository-adapter';
import { exactKeysOf, keysetAfter, readKeyValue, writeKeyValue } from './keyset';
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
      exactKeys: exactKeysOf(
        context.sort.map((key) => key.field),
        context.columns,
      ),
      finish: (rows, exact) => {
        const more = rows.length > limit;
        const page = more ? rows.slice(0, limit) : rows;
        const last = page[page.length - 1];
        const next = more && last ? writeCursor(signature, context, last, exact?.[page.length - 1]) : null;
        return { rows: page, meta: { nextCursor: next } };
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
    const read = readKeyValue(context.columns.get(key.field)!, parsed.v[index]);
    if (!read.ok) return invalid('The cursor is malformed.');
    values.push(read.value);
  }
  return keysetAfter(context.sort, values, context.columns);
}

function writeCursor(
  signature: string,
  context: PageContext,
  row: Row,
  exact: Readonly<Record<string, string | null>> | undefined,
): string {
  const values = context.sort.map((key) => writeKeyValue(context.columns.get(key.field)!, row, exact));
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
