/** The client's filter of a read, from the JSON form, the bracket form, or both under one bound. */
import type { QueryErrors } from '../errors/query-errors';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { FilterAllowlist } from './filter-allowlist';
import type { WireListQuery } from './read-list-params';
import { resolveFilterExpression } from './resolve-filter-expression';
import { markClientFilter } from './client-named';
import { resolveFilterParams } from './filter-params';

/**
 * The client's filter, from the JSON form (`filter=`), the bracket form (`filter[...]`) or both ANDed. Both at once
 * hold one `maxTerms` between them, as the bound parameters (and the per-event work of a subscription) it allows are
 * reckoned for one filter.
 */
export function resolveClientFilter(
  wire: Pick<WireListQuery, 'filter' | 'filterJson' | 'params'>,
  allowlist: FilterAllowlist,
  errors: QueryErrors,
  /** `filter.params`, for the plain parameters the wire holds (`params`), each an `eq` on its path. */
  params?: ReadonlyMap<string, string>,
): FilterNode | undefined {
  const filter = andFilters(
    wire.filterJson === undefined ? undefined : resolveFilterExpression(wire.filterJson, allowlist, errors),
    wire.filter === undefined ? undefined : resolveFilterExpression(wire.filter, allowlist, errors),
    resolveFilterParams(wire.params, params, allowlist, errors),
  );
  if (wire.filterJson !== undefined && wire.filter !== undefined && filter) {
    const terms = conditionsIn(filter);
    const { maxTerms } = allowlist.limits;
    if (terms > maxTerms) {
      errors.add(
        'filter',
        'too_many_terms',
        `filter and filter[...] hold ${terms} conditions between them; the limit is ${maxTerms}. Use fewer conditions, or 'in' lists.`,
      );
    }
  }
  markClientFilter(filter);
  return filter;
}

/** The conditions of a filter, whatever groups hold them. */
function conditionsIn(node: FilterNode): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.reduce((sum, child) => sum + conditionsIn(child), 0);
    case 'not':
      return conditionsIn(node.child);
    default:
      return 1;
  }
}
