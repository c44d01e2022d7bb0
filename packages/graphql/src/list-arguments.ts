/**
 * A list field's arguments (`limit`, `offset`, `filter`, `sort`, `search`, `withDeleted`, `onlyDeleted`) as the wire pairs `findMany` takes, so the
 * engine checks them with the same allowlists and limits as a REST query, and names the parameter at fault.
 */
import { GraphQLBoolean, type GraphQLScalarType } from 'graphql';
import { offsetPage } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import type { FilterInput } from './filter-types';

export interface ListArgs {
  readonly limit?: number | null;
  readonly offset?: number | null;
  readonly filter?: Readonly<Record<string, unknown>> | null;
  readonly sort?: readonly string[] | null;
  readonly search?: string | null;
  readonly withDeleted?: boolean | null;
  readonly onlyDeleted?: boolean | null;
}

export function listPairs(plan: EntityPlan, args: ListArgs, filter: FilterInput | undefined): [string, string][] {
  const pairs: [string, string][] = [...pagingPairs(plan, args)];
  if (args.sort !== undefined && args.sort !== null && args.sort.length > 0) pairs.push(['sort', args.sort.join(',')]);
  return [...pairs, ...matchPairs(args, filter)];
}

/**
 * What chooses the rows a list, an aggregate or a count reads: `filter` (in the engine's JSON form), `search` and the
 * row view. A null argument is an argument not given, as GraphQL has it; a null inside the filter is the engine's to
 * refuse.
 */
export function matchPairs(
  args: {
    readonly filter?: unknown;
    readonly search?: unknown;
    readonly withDeleted?: unknown;
    readonly onlyDeleted?: unknown;
  },
  filter: FilterInput | undefined,
): [string, string][] {
  const pairs: [string, string][] = [];
  if (args.filter !== undefined && args.filter !== null) {
    const value = args.filter as Readonly<Record<string, unknown>>;
    pairs.push(['filter', JSON.stringify(filter ? filter.toExpression(value) : value)]);
  }
  if (typeof args.search === 'string') pairs.push(['search[query]', args.search]);
  return [...pairs, ...viewPairs(args)];
}

/** `withDeleted` and `onlyDeleted`, sent only when true (false is the default row view). */
function viewPairs(args: { readonly withDeleted?: unknown; readonly onlyDeleted?: unknown }): [string, string][] {
  const pairs: [string, string][] = [];
  if (args.withDeleted === true) pairs.push(['withDeleted', 'true']);
  if (args.onlyDeleted === true) pairs.push(['onlyDeleted', 'true']);
  return pairs;
}

/** The row view's arguments of an entity that soft-deletes: also deleted rows, or only them. */
export function viewArguments(plan: EntityPlan): Record<string, { type: GraphQLScalarType; description: string }> {
  if (!plan.description.softDelete) return {};
  return {
    withDeleted: { type: GraphQLBoolean, description: 'Also the deleted rows.' },
    onlyDeleted: { type: GraphQLBoolean, description: 'Only the deleted rows.' },
  };
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
