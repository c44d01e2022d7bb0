/** Turns a filter expression (object form, from the wire or a caller) into a checked, coerced FilterNode. */
import { suggestion } from '../config/did-you-mean';
import type { FilterAllowlist, FilterableField } from './filter-allowlist';
import { OPERAND_SHAPES } from './operand-shapes';
import { coerceFilterValue } from '../schema/coerce-filter-value';
import { FILTER_OPERATORS, type FilterNode, type FilterOperator } from '../persistence/query-ast';
import type { QueryErrors } from '../errors/query-errors';

const GROUPS = new Set(['and', 'or', 'not']);
const OPERATOR_SET: ReadonlySet<string> = new Set(FILTER_OPERATORS);

interface Walk {
  readonly allowlist: FilterAllowlist;
  readonly errors: QueryErrors;
  /** Conditions resolved so far (every field-operator pair, whatever group holds it). */
  terms: number;
}

/** Resolves `expression`; problems go to `errors` under the parameter name `param` (for example `filter`). */
export function resolveFilterExpression(
  expression: unknown,
  allowlist: FilterAllowlist,
  errors: QueryErrors,
  param = 'filter',
): FilterNode | undefined {
  const walk: Walk = { allowlist, errors, terms: 0 };
  const node = resolveObject(expression, param, 0, walk);
  // A client's filter is bounded in breadth as in depth; server-written ones (filter.apply, filter.default) are not.
  const { maxTerms } = allowlist.limits;
  if (param === 'filter' && walk.terms > maxTerms) {
    errors.add(
      param,
      'too_many_terms',
      `${param} has ${walk.terms} conditions; the limit is ${maxTerms}. Use fewer conditions, or 'in' lists.`,
    );
    return undefined;
  }
  return node;
}

function resolveObject(expression: unknown, param: string, depth: number, walk: Walk): FilterNode | undefined {
  if (!isObject(expression)) {
    walk.errors.add(param, 'malformed', `${param} must be an object of fields and groups.`);
    return undefined;
  }
  const children: FilterNode[] = [];
  for (const key of Object.keys(expression)) {
    const value = expression[key];
    const childParam = `${param}[${key}]`;
    const node = GROUPS.has(key)
      ? resolveGroup(key as 'and' | 'or' | 'not', value, childParam, depth + 1, walk)
      : resolveField(key, value, childParam, walk);
    if (node) children.push(node);
  }
  if (children.length === 0) return undefined;
  return children.length === 1 ? children[0] : { kind: 'and', children };
}

function resolveGroup(kind: 'and' | 'or' | 'not', value: unknown, param: string, depth: number, walk: Walk) {
  if (depth > walk.allowlist.limits.maxDepth) {
    walk.errors.add(
      param,
      'too_deep',
      `${param} nests groups ${depth} deep; the limit is ${walk.allowlist.limits.maxDepth}. Flatten the filter.`,
    );
    return undefined;
  }
  if (kind === 'not') {
    const child = resolveObject(value, param, depth, walk);
    return child ? ({ kind: 'not', child } as const) : undefined;
  }
  const members = Array.isArray(value)
    ? value.map((member, i) => [String(i), member] as const)
    : isObject(value)
      ? Object.entries(value)
      : undefined;
  if (!members || members.length === 0) {
    walk.errors.add(param, 'malformed', `${param} must be a non-empty list of filter objects.`);
    return undefined;
  }
  const children: FilterNode[] = [];
  for (const [index, member] of members) {
    const child = resolveObject(member, `${param}[${index}]`, depth, walk);
    if (child) children.push(child);
  }
  return children.length > 0 ? ({ kind, children } as const) : undefined;
}

function resolveField(field: string, value: unknown, param: string, walk: Walk): FilterNode | undefined {
  const allowed = walk.allowlist.fields.get(field);
  if (!allowed) {
    const names = [...walk.allowlist.fields.keys()];
    walk.errors.add(param, 'field_not_filterable', `'${field}' is not a filterable field.${suggestion(field, names)}`);
    return undefined;
  }
  if (!isObject(value)) {
    walk.errors.add(param, 'malformed', `${param} needs an operator, for example ${param}[eq]=<value>.`);
    return undefined;
  }
  const conditions: FilterNode[] = [];
  walk.terms += Object.keys(value).length;
  for (const operator of Object.keys(value)) {
    const node = resolveCondition(field, allowed, operator, value[operator], `${param}[${operator}]`, walk);
    if (node) conditions.push(node);
  }
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { kind: 'and', children: conditions };
}

function resolveCondition(
  field: string,
  allowed: FilterableField,
  operator: string,
  raw: unknown,
  param: string,
  walk: Walk,
): FilterNode | undefined {
  const { errors, allowlist } = walk;
  if (!OPERATOR_SET.has(operator)) {
    errors.add(
      param,
      'unknown_operator',
      `'${operator}' is not a filter operator.${suggestion(operator, FILTER_OPERATORS)}`,
    );
    return undefined;
  }
  const op = operator as FilterOperator;
  if (!allowed.operators.has(op)) {
    errors.add(
      param,
      'operator_not_allowed',
      `'${field}' cannot be filtered with '${op}'. Allowed: ${[...allowed.operators].join(', ')}.`,
    );
    return undefined;
  }
  const shape = OPERAND_SHAPES[op];
  if (shape === 'flag') return nullCondition(field, op, raw, param, walk);
  if (shape === 'list' || shape === 'pair') {
    const values = toList(raw);
    if (shape === 'pair' && values.length !== 2) {
      errors.add(param, 'invalid_value', `${param} takes exactly two values: ${param}=low,high.`);
      return undefined;
    }
    if (values.length > allowlist.limits.maxInValues) {
      errors.add(
        param,
        'too_many_values',
        `${param} has ${values.length} values; the limit is ${allowlist.limits.maxInValues}.`,
      );
      return undefined;
    }
    const coerced = values.map((item) => coerce(allowed, item, param, walk));
    return coerced.every((item) => item.ok)
      ? { kind: 'condition', field, operator: op, value: coerced.map((item) => item.value) }
      : undefined;
  }
  if (shape === 'pattern' && typeof raw === 'string' && raw.length > allowlist.limits.maxLikePatternLength) {
    errors.add(
      param,
      'pattern_too_long',
      `${param} is ${raw.length} characters; the limit is ${allowlist.limits.maxLikePatternLength}.`,
    );
    return undefined;
  }
  const coerced = coerce(allowed, raw, param, walk);
  return coerced.ok ? { kind: 'condition', field, operator: op, value: coerced.value } : undefined;
}

function nullCondition(
  field: string,
  op: FilterOperator,
  raw: unknown,
  param: string,
  walk: Walk,
): FilterNode | undefined {
  const flag =
    raw === '' || raw === true || raw === 'true' || raw === '1'
      ? true
      : raw === false || raw === 'false' || raw === '0'
        ? false
        : undefined;
  if (flag === undefined) {
    walk.errors.add(param, 'invalid_value', `${param} takes true or false.`);
    return undefined;
  }
  const operator: FilterOperator = flag === (op === 'isNull') ? 'isNull' : 'isNotNull';
  return { kind: 'condition', field, operator, value: true };
}

function coerce(allowed: FilterableField, raw: unknown, param: string, walk: Walk): { ok: boolean; value?: unknown } {
  const result = coerceFilterValue(allowed.column, raw);
  if (!result.ok) walk.errors.add(param, 'invalid_value', `${param} ${result.reason}.`);
  return result;
}

function toList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string') return raw === '' ? [] : raw.split(',');
  return [raw];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
