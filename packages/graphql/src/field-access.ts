/**
 * Access per caller (`access`) over one schema. The schema serves each entity's widest view; a call asks the engine
 * only for what the caller's role reads (`service.describe(context)`, the role's view), on the root entity and on
 * every related one. A selected field the role may not read there is left out of the read and answered in its place
 * as a field error SVC_FORBIDDEN, its value null: graphql-js reports an `Error` a row holds as that field's error.
 */
import type { GraphQLError } from 'graphql';
import { SvcException, type EntityDescription } from '@svc/core';
import type { EntityPlan } from './entity-plan';
import { toGraphqlError } from './graphql-errors';

/** Which output serves a read's rows: the root's row (`findOne`, a write) or list items, or an included row. */
export type Served = 'item' | 'list' | 'included';

/** What one view of an entity serves: its columns by where they are served, and the relations it includes. */
export type Reads = Readonly<Record<Served, ReadonlySet<string>>> & { readonly relations: ReadonlySet<string> };

/** Each description's reads, worked out once (each role's view has a description of its own, built once). */
const reads = new WeakMap<EntityDescription, Reads>();

export function readsOf(description: EntityDescription): Reads {
  let known = reads.get(description);
  if (!known) {
    known = {
      item: new Set(description.output.item),
      list: new Set(description.output.list),
      included: new Set(description.select.fields),
      relations: new Set(description.include.relations.map((relation) => relation.name)),
    };
    reads.set(description, known);
  }
  return known;
}

/** The selected fields of one entity's rows the caller may not read, and those below its relations. */
export interface Refusals {
  readonly plan: EntityPlan;
  /** Row properties (columns by name, relations) answered as SVC_FORBIDDEN. */
  readonly fields: readonly string[];
  readonly below: ReadonlyMap<string, Refusals>;
}

/**
 * The answer with each refused field of each row (a row, a list of rows, or null) holding its error; the rows are
 * copied, never changed (a cached answer may share them).
 */
export function withRefusals(value: unknown, refusals: Refusals | undefined): unknown {
  if (!refusals || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((row) => withRefusals(row, refusals));
  const row: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of refusals.fields) row[field] = refusalOf(refusals.plan, field);
  for (const [relation, below] of refusals.below) row[relation] = withRefusals(row[relation], below);
  return row;
}

/** One error per entity and field, located by graphql-js at each path it is answered at. */
const errors = new WeakMap<EntityPlan, Map<string, GraphQLError>>();

function refusalOf(plan: EntityPlan, field: string): GraphQLError {
  let byField = errors.get(plan);
  if (!byField) errors.set(plan, (byField = new Map()));
  let error = byField.get(field);
  if (!error) {
    const detail = `Your role may not read '${field}' of ${plan.typeName}.`;
    error = toGraphqlError(new SvcException('SVC_FORBIDDEN', { detail }));
    byField.set(field, error);
  }
  return error;
}
