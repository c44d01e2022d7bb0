/**
 * From a GraphQL selection to the read's shape on the wire: the columns it selects (`select`), the relation fields
 * it descends into (`include`, dotted for nesting) and their columns (`select[<path>]`). The engine then loads every
 * relation in one batched, scoped statement per include path, whatever the page size, and holds the include limits.
 * Where an entity gives roles views (`access`), the pairs are the caller's: what its role reads on each entity.
 */
import {
  getDirectiveValues,
  type FieldNode,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { SvcContext } from '@svc/core';
import type { EntityPlan } from './entity-plan';
import { readsOf, type Reads, type Refusals, type Served } from './field-access';

/**
 * The request's variable values as graphql-js hands them to a resolver and takes them back in `getDirectiveValues`:
 * a plain record on graphql 16, `{ sources, coerced }` on 17. Svc only passes them through.
 */
type VariableValues = GraphQLResolveInfo['variableValues'];

/** The selection sets of one field under every alias, merged by field name. */
export type FieldSelections = Map<string, SelectionSetNode[]>;

/**
 * The fields a set of selection sets asks for (fragments and inline fragments flattened), merged by field name. A
 * field or fragment that `@skip` or `@include` leaves out under the request's variables is not asked for, so a
 * relation a client switches off by a variable is not loaded.
 */
export function collectFields(
  sets: readonly SelectionSetNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: VariableValues,
  out: FieldSelections = new Map(),
  seen: Set<string> = new Set(),
): FieldSelections {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (!selected(selection, variables)) continue;
      if (selection.kind === Kind.FIELD) {
        const list = out.get(selection.name.value) ?? [];
        if (selection.selectionSet) list.push(selection.selectionSet);
        out.set(selection.name.value, list);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collectFields([selection.selectionSet], fragments, variables, out, seen);
      } else {
        const name = selection.name.value;
        const fragment = fragments[name];
        if (!fragment || seen.has(name)) continue;
        seen.add(name);
        collectFields([fragment.selectionSet], fragments, variables, out, seen);
      }
    }
  }
  return out;
}

/** What graphql-js's execution decides for the selection's `@skip(if:)` and `@include(if:)`. */
function selected(selection: SelectionNode, variables: VariableValues): boolean {
  if (!selection.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, selection, variables)?.['if'] === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, selection, variables)?.['if'] !== false;
}

export interface ShapeArgs {
  readonly plan: EntityPlan;
  /** The selection sets of the entity's object (a list's `items`, or the single row). */
  readonly sets: readonly SelectionSetNode[];
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  /** The request's variable values, which `@skip` and `@include` read. */
  readonly variables: VariableValues;
  /** What the read itself serves: `findOne`'s row (and a write's), or `findMany`'s items. */
  readonly served: 'item' | 'list';
  readonly plans: ReadonlyMap<string, EntityPlan>;
}

/** One entity's part of a selection: the columns selected on it and the relations it descends into. */
export interface ShapeNode {
  readonly plan: EntityPlan;
  /** Which of the entity's outputs serves these rows (`Served`). */
  readonly served: Served;
  /** The selected columns the entity's widest view serves here, by column name, in selection order. */
  readonly columns: readonly string[];
  /** The selected relations; `node` is absent for a relation read by key (nothing to project, nothing below it). */
  readonly relations: readonly { readonly name: string; readonly node?: ShapeNode }[];
}

/** A read's shape: its `select`/`include` pairs, whether it includes relations, and the selection they come from. */
export interface Shape {
  readonly pairs: [string, string][];
  readonly hasRelations: boolean;
  readonly tree: ShapeNode;
  /** Some entity the selection reaches gives roles views (`access`): the pairs are the caller's (`callerShape`). */
  readonly perCaller: boolean;
}

/** The `select`, `include` and `select[<path>]` pairs of a read, as the entities' widest views serve it. */
export function shapePairs(args: ShapeArgs): Shape {
  let perCaller = false;
  const walk = (plan: EntityPlan, sets: readonly SelectionSetNode[], served: Served): ShapeNode => {
    perCaller ||= plan.perCaller;
    const fields = collectFields(sets, args.fragments, args.variables);
    const widest = readsOf(plan.description)[served];
    const columns: string[] = [];
    const relations: ShapeNode['relations'][number][] = [];
    for (const [name, inner] of fields) {
      const column = plan.columns.get(name)?.name;
      if (column !== undefined && widest.has(column)) columns.push(column);
      const relation = plan.relations.get(name);
      const target = relation && args.plans.get(relation.target);
      if (!target) continue;
      relations.push(relation.keysOnly ? { name } : { name, node: walk(target, inner, 'included') });
    }
    return { plan, served, columns, relations };
  };
  const tree = walk(args.plan, args.sets, args.served);
  return { ...pairsOf(tree, (plan) => readsOf(plan.description)), tree, perCaller };
}

/**
 * The pairs of a selection as `readsFor` serves each entity, and the selected fields it does not serve (`Refusals`),
 * which the read leaves out (an entity whose selected columns are all left out is projected to its key).
 */
export function pairsOf(
  tree: ShapeNode,
  readsFor: (plan: EntityPlan) => Reads,
): Pick<Shape, 'pairs' | 'hasRelations'> & { readonly refusals?: Refusals } {
  const pairs: [string, string][] = [];
  const includes: string[] = [];
  const walk = (node: ShapeNode, path: string): Refusals | undefined => {
    const reads = readsFor(node.plan);
    const served = reads[node.served];
    const columns = node.columns.filter((column) => served.has(column));
    const refused = node.columns.filter((column) => !served.has(column));
    const projection = columns.length > 0 ? columns : keyColumns(node.plan, served);
    if (projection.length > 0) pairs.push([path ? `select[${path}]` : 'select', projection.join(',')]);
    const below = new Map<string, Refusals>();
    for (const relation of node.relations) {
      if (!reads.relations.has(relation.name)) {
        refused.push(relation.name);
        continue;
      }
      const nested = path ? `${path}.${relation.name}` : relation.name;
      includes.push(nested);
      const inner = relation.node && walk(relation.node, nested);
      if (inner) below.set(relation.name, inner);
    }
    return refused.length > 0 || below.size > 0 ? { plan: node.plan, fields: refused, below } : undefined;
  };
  const refusals = walk(tree, '');
  if (includes.length > 0) pairs.push(['include', includes.join(',')]);
  return { pairs, hasRelations: includes.length > 0, ...(refusals ? { refusals } : {}) };
}

/** A read's pairs for one caller, and the selected fields refused that caller (none where nothing is). */
export type CallerShape = Pick<Shape, 'pairs' | 'hasRelations'> & { readonly refusals?: Refusals };

/**
 * The shape as this caller is served it: where an entity the selection reaches gives roles views (`access`), its pairs
 * for the caller's role on each entity (what `service.describe(context)` serves that role) and what of the answer is
 * refused; the shape itself otherwise.
 */
export function callerShape(shape: Shape, context: SvcContext): CallerShape {
  if (!shape.perCaller) return shape;
  return pairsOf(shape.tree, (plan) => readsOf(plan.perCaller ? plan.service.describe(context) : plan.description));
}

/** A selection of relations only still needs some projection: the key, when it is served (else every column). */
function keyColumns(plan: EntityPlan, served: ReadonlySet<string>): string[] {
  const keys = plan.description.primaryKeys.filter((key) => served.has(key));
  return keys.length === plan.description.primaryKeys.length ? keys : [];
}

/** Gives a field's shape, worked out once per field node where it can be. */
export type ShapeCache = (
  fieldNodes: readonly FieldNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  compute: () => Shape,
) => Shape;

/**
 * A cache of one field's shapes (one per field of one schema, so a node read against another schema is shaped
 * again). A shape is kept by the field's node when it is the only one and its selections hold no `@skip`/`@include`:
 * no variable changes it then, and a cached document hands every request the same nodes. Otherwise it is worked out
 * on every call.
 */
export function shapeCache(): ShapeCache {
  const shapes = new WeakMap<FieldNode, Shape | 'varies'>();
  return (fieldNodes, fragments, compute) => {
    const node = fieldNodes.length === 1 ? fieldNodes[0]! : undefined;
    const known = node && shapes.get(node);
    if (known && known !== 'varies') return known;
    const shape = compute();
    if (node && known === undefined) {
      shapes.set(node, hasDirectives(node.selectionSet, fragments, new Set()) ? 'varies' : shape);
    }
    return shape;
  };
}

function hasDirectives(
  set: SelectionSetNode | undefined,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  seen: Set<string>,
): boolean {
  for (const selection of set?.selections ?? []) {
    if (selection.directives?.length) return true;
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value];
      if (seen.has(selection.name.value) || !fragment) continue;
      seen.add(selection.name.value);
      if (fragment.directives?.length || hasDirectives(fragment.selectionSet, fragments, seen)) return true;
    } else if (hasDirectives(selection.selectionSet, fragments, seen)) return true;
  }
  return false;
}
