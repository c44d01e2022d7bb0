/**
 * A single-row read's query (`select`, `select[<relation>]` and `include`, nothing else), and the shape of the items
 * every read serves, which a list read resolves the same way.
 */
import type { FindManyQuery } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import { QueryErrors } from '../errors/query-errors';
import type { IncludeNode } from './include-tree';
import type { ListQueryConfig } from './list-query-config';
import type { QueryPairs } from './parse-query-string';
import { joined, readListParams, refuseParams, type WireListQuery } from './read-list-params';
import { resolveSelect } from './select-config';

/** A resolved single-row read, and the shape of every item a read serves: its fields and its included relations. */
export interface ItemReadPlan {
  readonly select: readonly string[];
  readonly include: readonly IncludeNode[];
}

const ITEM_PARAMS: ReadonlySet<keyof WireListQuery> = new Set(['select', 'include', 'relationSelects']);

/** findOne takes only `select`, `select[<relation>]` and `include`; anything else is an unsupported parameter. */
export async function resolveWireItemQuery(
  pairs: QueryPairs,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ItemReadPlan> {
  const errors = new QueryErrors();
  return resolveItem(readListParams(pairs, errors), config, errors, { operation, context });
}

export async function resolveProgrammaticItemQuery(
  query: FindManyQuery,
  config: ListQueryConfig,
  operation: string,
  context: SvcContext,
): Promise<ItemReadPlan> {
  const errors = new QueryErrors();
  const wire: WireListQuery = {
    select: joined(query.select),
    include: joined(query.include),
  };
  for (const key of Object.keys(query))
    if (!['select', 'include'].includes(key)) (wire as Record<string, unknown>)[key] = true;
  return resolveItem(wire, config, errors, { operation, context });
}

async function resolveItem(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ItemReadPlan> {
  const refuse = (param: string) =>
    errors.unsupportedParam(param, `${param} is taken by list reads only. Remove it from this single-row read.`);
  refuseParams(wire, ITEM_PARAMS, refuse);
  const shape = await resolveItemShape(wire, config, errors, args);
  errors.throwIfAny();
  return shape;
}

/** What each item serves: the projection and the included relations. */
export async function resolveItemShape(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<ItemReadPlan> {
  const applyArgs = { ...args, entity: config.entity };
  const select = await resolveSelect(config.select, wire.select, errors, applyArgs, config.outputFields);
  return { select, include: await resolveIncludes(wire, config, errors, args) };
}

async function resolveIncludes(
  wire: WireListQuery,
  config: ListQueryConfig,
  errors: QueryErrors,
  args: { operation: string; context: SvcContext },
): Promise<IncludeNode[]> {
  if (config.include) return config.include({ include: wire.include, selects: wire.relationSelects }, errors, args);
  if (wire.include !== undefined)
    errors.unsupportedParam('include', 'include is not taken by this resource. Remove it.');
  for (const path of wire.relationSelects?.keys() ?? []) {
    errors.add(
      `select[${path}]`,
      'not_included',
      `select[${path}] projects a relation this resource cannot include. Remove it.`,
    );
  }
  return [];
}
