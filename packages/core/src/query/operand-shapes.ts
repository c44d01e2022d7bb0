/**
 * What each filter operator takes, as one of five operand shapes, with the words that explain it: the parser checks
 * operands by shape, and the description gives each surface the shape, its bound and its help text, so GraphQL, the
 * agent tools and OpenAPI each map five shapes to their own types instead of classifying operators again.
 */
import type { FilterOperator } from '../persistence/query-ast';

/**
 * `value`: one value of the field's kind; `pair`: exactly two (low, high); `list`: one or more, up to `maxInValues`;
 * `flag`: true or false; `pattern`: text, up to `maxLikePatternLength` characters.
 */
export type OperandShape = 'value' | 'pair' | 'list' | 'flag' | 'pattern';

export const OPERAND_SHAPES: Readonly<Record<FilterOperator, OperandShape>> = {
  eq: 'value',
  ne: 'value',
  gt: 'value',
  gte: 'value',
  lt: 'value',
  lte: 'value',
  in: 'list',
  notIn: 'list',
  between: 'pair',
  like: 'pattern',
  ilike: 'pattern',
  contains: 'pattern',
  startsWith: 'pattern',
  endsWith: 'pattern',
  isNull: 'flag',
  isNotNull: 'flag',
};

export const OPERATOR_HELP: Readonly<Record<FilterOperator, string>> = {
  eq: 'equals',
  ne: 'differs from',
  gt: 'greater than',
  gte: 'greater than or equal to',
  lt: 'less than',
  lte: 'less than or equal to',
  in: 'one of the values',
  notIn: 'none of the values',
  between: 'between the two values (low, high), inclusive',
  like: 'SQL LIKE pattern (% and _), case-sensitive',
  ilike: 'SQL LIKE pattern, case-insensitive',
  contains: 'contains the text, case-insensitive',
  startsWith: 'starts with the text, case-insensitive',
  endsWith: 'ends with the text, case-insensitive',
  isNull: 'true: the value is null; false: it is not',
  isNotNull: 'true: the value is not null; false: it is',
};
