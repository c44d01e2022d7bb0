/**
 * A list field's arguments (`limit`, `offset`, `filter`, `sort`, `search`) as the wire pairs `findMany` takes, so the
 * engine checks them with the same allowlists and limits as a REST query, and names the parameter at fault.
 */
import { offsetPage } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import type { FilterInput } from './filter-types';

export interface ListArgs {
  readonly limit?: number | null;
  readonly offset?: number | null;
  readonly filter?: Readonly<Record<string, unknown>> | null;
  readonly sort?: readonly string[] | null;
  readonly search?: string | null;
}

export function listPairs(plan: EntityPlan, args: ListArgs, filter: FilterInput | undefined): [string, string][] {
  const pairs: [string, string][] = [...pagingPairs(plan, args)];
  // A null argument is an argument not given, as GraphQL has it; a null inside the filter is the engine's to refuse.
  if (args.filter !== undefined && args.filter !== null) {
    pairs.push(['filter', JSON.stringify(filter ? filter.toExpression(args.filter) : args.filter)]);
  }
  if (args.sort !== undefined && args.sort !== null && args.sort.length > 0) pairs.push(['sort', args.sort.join(',')]);
  if (args.search !== undefined && args.search !== null) pairs.push(['search[query]', args.search]);
  return pairs;
}

/** Under the `page` strategy, `limit` is the page size and `offset` must fall on a page boundary. */
function pagingPairs(plan: EntityPlan, args: ListArgs): [string, string][] {
  const pairs: [string, string][] = [];
  const { limit, offset } = args;
  if (plan.paging === 'offset') {
    if (limit !== undefined && limit !== null) pairs.push(['limit', String(limit)]);
    if (offset !== undefined && offset !== null) pairs.push(['offset', String(offset)]);
    return pairs;
  }
  if (plan.paging !== 'page') return pairs;
  const page = offsetPage(plan.description, args);
  if (page.size !== undefined) pairs.push(['page[size]', String(page.size)]);
  if (page.number !== undefined) pairs.push(['page[number]', String(page.number)]);
  return pairs;
}
