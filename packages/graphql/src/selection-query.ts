/**
 * From a GraphQL selection to the read's shape on the wire: the columns it selects (`select`), the relation fields
 * it descends into (`include`, dotted for nesting) and their columns (`select[<path>]`). The engine then loads every
 * relation in one batched, scoped statement per include path, whatever the page size, and holds the include limits.
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
import type { EntityPlan } from './entity-plan';

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
  /** The fields the read itself serves (`findMany`'s items, or `findOne`'s row). */
  readonly served: ReadonlySet<string>;
  readonly plans: ReadonlyMap<string, EntityPlan>;
}

/** The `select`, `include` and `select[<path>]` pairs of a read; `hasRelations` when it includes any. */
export function shapePairs(args: ShapeArgs): { pairs: [string, string][]; hasRelations: boolean } {
  const pairs: [string, string][] = [];
  const includes: string[] = [];
  const walk = (plan: EntityPlan, sets: readonly SelectionSetNode[], path: string, served: ReadonlySet<string>) => {
    const fields = collectFields(sets, args.fragments, args.variables);
    const columns: string[] = [];
    for (const name of fields.keys()) {
      const column = plan.columns.get(name)?.name;
      if (column !== undefined && served.has(column)) columns.push(column);
    }
    const projection = columns.length > 0 ? columns : keyColumns(plan, served);
    if (projection.length > 0) pairs.push([path ? `select[${path}]` : 'select', projection.join(',')]);
    for (const [name, inner] of fields) {
      const relation = plan.relations.get(name);
      const target = relation && args.plans.get(relation.target);
      if (!target) continue;
      const nested = path ? `${path}.${name}` : name;
      includes.push(nested);
      // A relation read by key serves the key alone: nothing to project, nothing below it.
      if (!relation.keysOnly) walk(target, inner, nested, target.readable);
    }
  };
  walk(args.plan, args.sets, '', args.served);
  if (includes.length > 0) pairs.push(['include', includes.join(',')]);
  return { pairs, hasRelations: includes.length > 0 };
}

/** A selection of relations only still needs some projection: the key, when it is served (else every column). */
function keyColumns(plan: EntityPlan, served: ReadonlySet<string>): string[] {
  const keys = plan.description.primaryKeys.filter((key) => served.has(key));
  return keys.length === plan.description.primaryKeys.length ? keys : [];
}

/** A read's shape: its pairs, and whether it includes relations. */
export type Shape = ReturnType<typeof shapePairs>;

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
