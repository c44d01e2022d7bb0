/** The parsed query: what the wire grammar, `service.findMany(query)`, GraphQL and MCP all reduce to. */

export type FilterOperator =
  | 'eq'
  | 'ne'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'in'
  | 'notIn'
  | 'between'
  | 'like'
  | 'ilike'
  | 'isNull'
  | 'isNotNull'
  | 'contains'
  | 'startsWith'
  | 'endsWith';

export const FILTER_OPERATORS: readonly FilterOperator[] = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'notIn',
  'between',
  'like',
  'ilike',
  'isNull',
  'isNotNull',
  'contains',
  'startsWith',
  'endsWith',
];

/** A condition on one field. `value` is already coerced to the column's kind (an array for in/notIn/between). */
export interface FilterCondition {
  readonly kind: 'condition';
  readonly field: string;
  readonly operator: FilterOperator;
  readonly value: unknown;
  /** On a relation path: conditions the related row must also meet (the related entity's own `filter.apply`). */
  readonly scope?: FilterNode;
}

export interface FilterGroup {
  readonly kind: 'and' | 'or';
  readonly children: readonly FilterNode[];
}

export interface FilterNot {
  readonly kind: 'not';
  readonly child: FilterNode;
}

export type FilterNode = FilterCondition | FilterGroup | FilterNot;

/**
 * A date-time as the database itself spells it (`FindManyResult.exact`): adapters bind it as is, so a keyset boundary
 * compares with the value the database holds, not with its millisecond JavaScript copy.
 */
export interface DatabaseSpelling {
  readonly databaseSpelling: string;
}

export function isDatabaseSpelling(value: unknown): value is DatabaseSpelling {
  return (
    typeof value === 'object' && value !== null && typeof (value as DatabaseSpelling).databaseSpelling === 'string'
  );
}

export interface SortKey {
  /** An own column, or a to-one relation path (`author.name`) where `sort.fields` lists one. */
  readonly field: string;
  readonly direction: 'asc' | 'desc';
  /** On a relation path: conditions the related row must meet to lend its value (its entity's `filter.apply`). */
  readonly scope?: FilterNode;
}

/** Which rows a read sees on a soft-delete entity. */
export type RowView = 'live' | 'all' | 'deleted';

/** AND of the given nodes, dropping the undefined ones. */
export function andFilters(...nodes: (FilterNode | undefined)[]): FilterNode | undefined {
  const present = nodes.filter((node): node is FilterNode => node !== undefined);
  if (present.length <= 1) return present[0];
  return { kind: 'and', children: present };
}
