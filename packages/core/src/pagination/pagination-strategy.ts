/** The pagination port: a strategy reads its own query parameters and says which rows a page holds. */
import type { QueryErrors } from '../errors/query-errors';
import type { FilterNode, SortKey } from '../persistence/query-ast';
import type { ColumnMetadata } from '../persistence/entity-metadata';
import type { Row } from '../persistence/repository-adapter';

export interface PageSettings {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** `pagination.since.field`: the column the `since` strategy pages by. */
  readonly sinceField?: string;
}

/** The page of one request: how many rows (undefined: all), from where, and what the envelope reports. */
export interface PagePlan {
  readonly limit?: number;
  readonly offset: number;
  readonly reportedLimit: number;
  readonly reportedOffset: number;
  /** A keyset condition for the page's rows only (the total still counts the whole match set). */
  readonly after?: FilterNode;
  /** Read one row past `limit`, so `finish` can tell whether another page follows. */
  readonly probe?: boolean;
  /** The order the strategy imposes instead of the request's (`since`); the strategy then refuses `sort`. */
  readonly sort?: readonly SortKey[];
  /** Date-time fields whose database spelling `finish` needs (`FindManyArgs.exactKeys`). */
  readonly exactKeys?: readonly string[];
  /** Trims the probe row and says what the envelope's `meta` carries (for example `nextCursor`). */
  finish?(
    rows: Row[],
    exact?: readonly Readonly<Record<string, string | null>>[],
  ): { readonly rows: Row[]; readonly meta?: Record<string, unknown> };
}

/** What a keyset strategy needs to know of the read: the effective sort and which fields may carry a cursor. */
export interface PageContext {
  readonly sort: readonly SortKey[];
  readonly columns: ReadonlyMap<string, ColumnMetadata>;
  readonly primaryKeys: readonly string[];
  /** Why a sort key may not carry a cursor (not on the sort, filter and select allowlists), or undefined. */
  readonly refuseKey: (field: string) => string | undefined;
}

export interface PaginationStrategy {
  readonly name: string;
  /** Query parameters this strategy takes; a pagination parameter it does not take is refused. */
  readonly params: readonly string[];
  /** The strategy sets the order itself (`PagePlan.sort`), so a request's `sort` is refused. */
  readonly ownsSort?: boolean;
  plan(args: {
    readonly params: ReadonlyMap<string, string>;
    readonly settings: PageSettings;
    readonly errors: QueryErrors;
    readonly context: PageContext;
  }): PagePlan;
}

/** Every pagination parameter of the grammar, whichever strategy takes it. */
export const PAGINATION_PARAMS: readonly string[] = [
  'limit',
  'offset',
  'page[number]',
  'page[size]',
  'cursor',
  'since',
];

/** The largest limit or offset a request may send (and the limit `none` reports). */
export const MAX_PAGE_INTEGER = 2147483647;

/** A whole number from `min` to 2147483647, or undefined (with the problem recorded) when the value is malformed. */
export function readPageInteger(
  value: string | undefined,
  param: string,
  errors: QueryErrors,
  min = 0,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_PAGE_INTEGER || Number(value) < min) {
    errors.add(
      param,
      'invalid_value',
      `${param} must be a whole number from ${min} to ${MAX_PAGE_INTEGER}; got '${value.slice(0, 40)}'.`,
    );
    return undefined;
  }
  return Number(value);
}
