/**
 * `filter.params`: plain query parameters that filter a list by equality (`?author=jake` for
 * `filter[author.username][eq]=jake`), checked against the filter allowlist at bootstrap and resolved per request by
 * the same rules as the grammar's `eq`, each problem named by the parameter the client sent.
 */
import { suggestion } from '../config/did-you-mean';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import { QueryErrors } from '../errors/query-errors';
import type { SvcErrorItem } from '../errors/svc-exception';
import { PAGINATION_PARAMS } from '../pagination/pagination-strategy';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { FilterAllowlist } from './filter-allowlist';
import { resolveFilterExpression } from './resolve-filter-expression';

/** The query parameters Svc's grammars read (list, item, count, aggregate, batch, events): never a filter param. */
const RESERVED: ReadonlySet<string> = new Set([
  ...PAGINATION_PARAMS.map((param) => param.split('[')[0]!),
  'filter',
  'sort',
  'select',
  'include',
  'search',
  'page',
  'withDeleted',
  'onlyDeleted',
  'ids',
  'id',
  'groupBy',
  'count',
  'countDistinct',
  'sum',
  'avg',
  'min',
  'max',
]);

/** A parameter name a query string carries as it is: no brackets, no separators. */
const PARAM_NAME = /^[A-Za-z_][\w.-]*$/;

/**
 * Checks `filter.params` against the list's filter allowlist (each path listed, with `eq`) and the parameters the
 * grammar and the pagination strategy read; undefined when there are none.
 */
export function buildFilterParams(
  entity: string,
  params: unknown,
  allowlist: FilterAllowlist,
  strategyParams: readonly string[] = [],
): ReadonlyMap<string, string> | undefined {
  if (params === undefined) return undefined;
  const fail = (path: string, message: string): never => {
    throw new ConfigurationException({ entity, path, message });
  };
  if (!isPlainObject(params))
    fail('filter.params', "must be an object from query parameter to filter path: { author: 'author.username' }.");
  const reserved = new Set([...RESERVED, ...strategyParams.map((param) => param.split('[')[0]!)]);
  const out = new Map<string, string>();
  for (const [param, path] of Object.entries(params as Record<string, unknown>)) {
    const at = `filter.params.${param}`;
    if (!PARAM_NAME.test(param))
      fail(at, 'is not a plain query parameter name. Use letters, digits, _, - and . (no brackets).');
    if (reserved.has(param))
      fail(at, `is a query parameter Svc reads itself (${[...reserved].join(', ')}). Choose another name.`);
    if (typeof path !== 'string' || path.length === 0) fail(at, 'must be a filter path, such as author.username.');
    const field = allowlist.fields.get(path as string);
    if (!field)
      fail(
        at,
        `names '${String(path)}', which filter.fields does not list.${suggestion(String(path), allowlist.fields.keys())} List it there.`,
      );
    if (!field!.operators.has('eq'))
      fail(at, `names '${String(path)}', whose filter.fields entry does not take eq. Add eq to its operators.`);
    out.set(param, path as string);
  }
  return out.size > 0 ? out : undefined;
}

/**
 * The conditions of the filter params a request sent (`wire`: each parameter once, by name), ANDed: each the grammar's
 * `eq` on its path (`filter[<path>][eq]`, whose wording its problems keep), its problems' `param` the parameter sent.
 */
export function resolveFilterParams(
  wire: ReadonlyMap<string, string> | undefined,
  params: ReadonlyMap<string, string> | undefined,
  allowlist: FilterAllowlist,
  errors: QueryErrors,
): FilterNode | undefined {
  if (!wire || !params) return undefined;
  let filter: FilterNode | undefined;
  for (const [param, value] of wire) {
    const path = params.get(param)!;
    const own = new QueryErrors();
    // Resolved as the grammar's bracket form, so its details read as the grammar's do; each names the parameter sent.
    const node = resolveFilterExpression({ [path]: { eq: value } }, allowlist, own, 'filter');
    for (const item of problemsIn(own)) errors.add(param, item.code, item.detail);
    filter = andFilters(filter, node);
  }
  return filter;
}

function problemsIn(errors: QueryErrors): readonly SvcErrorItem[] {
  try {
    errors.throwIfAny();
    return [];
  } catch (error) {
    return (error as { errors?: readonly SvcErrorItem[] }).errors ?? [];
  }
}
