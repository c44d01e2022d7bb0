/**
 * `since` (polling, sync): everything after a boundary on `pagination.since.field`, in ascending `(field, id)` order.
 * The token is plain, `<value>|<id>`, so a client can build it from a row it knows; `meta.nextSince` names the last
 * row served, or echoes the request's own token when nothing is new.
 */
import type { ColumnMetadata } from '../persistence/entity-metadata';
import type { Row } from '../persistence/repository-adapter';
import type { FilterNode, SortKey } from '../persistence/query-ast';
import { exactKeysOf, keysetAfter, readKeyValue, writeKeyValue } from './keyset';
import { readPageInteger, type PageContext, type PagePlan, type PaginationStrategy } from './pagination-strategy';

export const SincePaginationStrategy: PaginationStrategy = {
  name: 'since',
  params: ['limit', 'since'],
  ownsSort: true,
  plan({ params, settings, errors, context }): PagePlan {
    const limit = Math.min(
      readPageInteger(params.get('limit'), 'limit', errors, 1) ?? settings.defaultLimit,
      settings.maxLimit,
    );
    const field = settings.sinceField ?? 'updatedAt';
    const sort: SortKey[] = [
      { field, direction: 'asc' },
      { field: context.primaryKeys[0]!, direction: 'asc' },
    ];
    const token = params.get('since');
    const after = token === undefined ? undefined : readSince(token, sort, context, errors);
    return {
      limit,
      offset: 0,
      reportedLimit: limit,
      reportedOffset: 0,
      sort,
      after,
      exactKeys: exactKeysOf([field], context.columns),
      finish: (rows, exact) => {
        const last = rows[rows.length - 1];
        const next = last ? writeSince(sort, context, last, exact?.[rows.length - 1]) : (token ?? null);
        return { rows, meta: { nextSince: next } };
      },
    };
  },
};

/** `<value>|<id>`, split at the last bar (a string since field may hold bars itself). */
function readSince(
  token: string,
  sort: readonly SortKey[],
  context: PageContext,
  errors: { add(param: string, code: string, detail: string): void },
): FilterNode | undefined {
  const [field, id] = sort.map((key) => context.columns.get(key.field)!) as [ColumnMetadata, ColumnMetadata];
  const bar = token.lastIndexOf('|');
  const value = readKeyValue(field, token.slice(0, bar));
  const key = readKeyValue(id, token.slice(bar + 1));
  const why =
    bar === -1
      ? 'has no bar'
      : !value.ok
        ? `its ${field.property} ${value.reason}`
        : !key.ok
          ? `its ${id.property} ${key.reason}`
          : undefined;
  if (why || !value.ok || !key.ok) {
    errors.add(
      'since',
      'invalid_since',
      `since must be '<${field.property}>|<${id.property}>' as meta.nextSince gives it, and ${why ?? 'is not'}.`,
    );
    return undefined;
  }
  return keysetAfter(sort, [value.value, key.value], context.columns);
}

function writeSince(
  sort: readonly SortKey[],
  context: PageContext,
  row: Row,
  exact: Readonly<Record<string, string | null>> | undefined,
): string {
  return sort.map((key) => String(writeKeyValue(context.columns.get(key.field)!, row, exact))).join('|');
}
