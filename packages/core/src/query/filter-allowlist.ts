/** The filterable fields of an entity and their operators, built once at bootstrap. */
import type { ColumnMetadata } from '../persistence/entity-metadata';
import type { FilterOperator } from '../persistence/query-ast';

export interface FilterLimits {
  readonly maxDepth: number;
  readonly maxInValues: number;
  readonly maxLikePatternLength: number;
  /** Conditions one client filter may hold, across all its groups. */
  readonly maxTerms: number;
}

export interface FilterableField {
  readonly column: ColumnMetadata;
  /** Operators this field takes: every operator its kind supports, or those the map form of `filter.fields` lists. */
  readonly operators: ReadonlySet<FilterOperator>;
}

export interface FilterAllowlist {
  readonly fields: ReadonlyMap<string, FilterableField>;
  readonly limits: FilterLimits;
}

const COMPARISON: FilterOperator[] = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'notIn',
  'between',
  'isNull',
  'isNotNull',
];
const TEXT: FilterOperator[] = [...COMPARISON, 'like', 'ilike', 'contains', 'startsWith', 'endsWith'];
const EQUALITY: FilterOperator[] = ['eq', 'ne', 'in', 'notIn', 'isNull', 'isNotNull'];

/** Operators that make sense for a column kind. */
export function operatorsForKind(column: ColumnMetadata): readonly FilterOperator[] {
  switch (column.kind) {
    case 'string':
      return TEXT;
    case 'boolean':
    case 'uuid':
    case 'enum':
      return EQUALITY;
    case 'json':
      return ['isNull', 'isNotNull'];
    default:
      return COMPARISON;
  }
}
