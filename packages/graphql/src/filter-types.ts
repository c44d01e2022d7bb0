/**
 * `<Entity>Filter`: the typed filter input of a list, derived from `filter.fields`. It holds `and`, `or`, `not` and
 * one field per filterable column, whose own input offers exactly the operators allowed for it. Relation paths
 * (`author.country`) nest: `{ author: { country: { eq: "UK" } } }`. The value is handed to the engine as a filter
 * expression, so the wire grammar's limits (depth, terms, in-list size, pattern length) hold as they do over REST.
 */
import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLEnumType,
  type GraphQLInputFieldConfig,
  type GraphQLInputType,
  type GraphQLScalarType,
} from 'graphql';
import type { OperandDescription } from '@svc/core';
import { pascal } from './graphql-names';
import type { EntityPlan } from './entity-plan';
import type { SchemaTypes } from './schema-types';

/** A path segment: a filterable column (a leaf) or a relation whose own fields nest under it. */
type FilterTree = Map<string, FilterTree | 'leaf'>;

/** The filter input of an entity and how to turn a value of it back into the engine's filter expression. */
export interface FilterInput {
  readonly type: GraphQLInputObjectType;
  /** `{ author: { country: { eq } } }` to `{ "author.country": { eq } }`, groups kept. */
  toExpression(value: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

type FilterField = EntityPlan['description']['filter']['fields'][number];

export function buildFilterInput(plan: EntityPlan, types: SchemaTypes): FilterInput | undefined {
  const fields = plan.description.filter.fields.filter((field) => field.operators.length > 0);
  if (fields.length === 0) return undefined;
  const tree = filterTree(fields);
  const leaves = new Map(fields.map((field) => [field.name, field]));
  const inputOf = (next: FilterTree | 'leaf', path: string): GraphQLInputObjectType =>
    next === 'leaf' ? operatorsInput(plan, types, leaves.get(path)!) : groupInput(plan, types, next, path, inputOf);
  const root: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${plan.typeName}Filter`,
    description: `Conditions on ${plan.typeName} rows; fields and groups AND together.`,
    fields: () => {
      const inputs: Record<string, GraphQLInputFieldConfig> = {
        and: { type: new GraphQLList(new GraphQLNonNull(root)), description: 'Every one of these matches.' },
        or: { type: new GraphQLList(new GraphQLNonNull(root)), description: 'At least one of these matches.' },
        not: { type: root, description: 'This does not match.' },
      };
      for (const [segment, next] of tree) inputs[segment] = { type: inputOf(next, segment) };
      return inputs;
    },
  });
  types.add(root, plan.typeName);
  return { type: root, toExpression: (value) => toExpression(value, tree) };
}

/** The filterable paths as a tree: `author.name` under `author`. */
function filterTree(fields: readonly FilterField[]): FilterTree {
  const tree: FilterTree = new Map();
  for (const field of fields) {
    const segments = field.name.split('.');
    let level = tree;
    for (const segment of segments.slice(0, -1)) {
      const next = level.get(segment);
      const inner: FilterTree = next instanceof Map ? next : new Map();
      level.set(segment, inner);
      level = inner;
    }
    level.set(segments.at(-1)!, 'leaf');
  }
  return tree;
}

/** `<Entity><Field>Filter` (or `<Entity><Path>Path<Field>Filter` on a relation path): the field's operators. */
function operatorsInput(plan: EntityPlan, types: SchemaTypes, field: FilterField): GraphQLInputObjectType {
  // An own column, a column of an embedded class (`price.amount`) too; a relation path finds none.
  const own = plan.description.fields.find((f) => f.name === field.name);
  const leaf = types.leaf({
    entity: plan.typeName,
    field: field.name,
    kind: field.kind,
    enumValues: own?.enumValues,
    key: own?.primary,
  });
  const inputs: Record<string, GraphQLInputFieldConfig> = {};
  for (const operator of field.operators) {
    const operand = plan.description.filter.operands[operator];
    if (operand) inputs[operator] = { type: operandType(operand, leaf), description: `${capitalize(operand.help)}.` };
  }
  const segments = field.name.split('.');
  const path = segments.slice(0, -1).map(pascal).join('');
  return types.add(
    new GraphQLInputObjectType({
      name: `${plan.typeName}${path}${path ? 'Path' : ''}${pascal(segments.at(-1)!)}Filter`,
      description: `The operators ${plan.typeName}.${field.name} may be filtered with.`,
      fields: inputs,
    }),
    plan.typeName,
  );
}

/** `<Entity><Path>PathFilter`: the filterable fields under a relation path. */
function groupInput(
  plan: EntityPlan,
  types: SchemaTypes,
  level: FilterTree,
  prefix: string,
  inputOf: (next: FilterTree | 'leaf', path: string) => GraphQLInputObjectType,
): GraphQLInputObjectType {
  const inputs: Record<string, GraphQLInputFieldConfig> = {};
  for (const [segment, next] of level) inputs[segment] = { type: inputOf(next, `${prefix}.${segment}`) };
  return types.add(
    new GraphQLInputObjectType({
      name: `${plan.typeName}${prefix.split('.').map(pascal).join('')}PathFilter`,
      description: `Conditions on the ${prefix} of a ${plan.typeName}.`,
      fields: inputs,
    }),
    plan.typeName,
  );
}

function toExpression(value: Readonly<Record<string, unknown>>, tree: FilterTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // An explicit null is handed on as it is, so the engine refuses it by name instead of it widening the result.
    if (inner === null || typeof inner !== 'object') out[key] = inner;
    else if (key === 'and' || key === 'or') {
      out[key] = (inner as Record<string, unknown>[]).map((item) => toExpression(item, tree));
    } else if (key === 'not') {
      out[key] = toExpression(inner as Record<string, unknown>, tree);
    } else {
      flatten(key, inner as Record<string, unknown>, tree.get(key), out);
    }
  }
  return out;
}

function flatten(
  path: string,
  value: Record<string, unknown>,
  node: FilterTree | 'leaf' | undefined,
  out: Record<string, unknown>,
): void {
  if (node === 'leaf' || node === undefined) {
    out[path] = value;
    return;
  }
  for (const [segment, inner] of Object.entries(value)) {
    if (inner === null || typeof inner !== 'object') out[`${path}.${segment}`] = inner;
    else flatten(`${path}.${segment}`, inner as Record<string, unknown>, node.get(segment), out);
  }
}

/** The GraphQL type of an operand, by its shape. */
function operandType(operand: OperandDescription, leaf: GraphQLScalarType | GraphQLEnumType): GraphQLInputType {
  switch (operand.shape) {
    case 'flag':
      return GraphQLBoolean;
    case 'pattern':
      return GraphQLString;
    case 'list':
    case 'pair':
      return new GraphQLList(new GraphQLNonNull(leaf));
    case 'value':
      return leaf;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
