/**
 * The write inputs of an entity, one per write slot: `<Entity>CreateInput`, `<Entity>UpdateInput` and
 * `<Entity>PatchInput` hold exactly the slot's writable fields (required ones non-null, on create and on the replace of
 * update). A to-one relation written by reference takes `{ <key>: ID! }` (`<Target>Reference`).
 */
import {
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLNonNull,
  type GraphQLInputFieldConfig,
  type GraphQLEnumType,
  type GraphQLScalarType,
} from 'graphql';
import type { WriteFieldDescription, WriteSlotDescription } from '@svc/core';
import type { ColumnKind } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import { graphqlFieldName } from './graphql-names';
import type { SchemaTypes } from './schema-types';

export type WriteSlot = 'create' | 'update' | 'patch';

/** A write input type and how a value of it becomes the operation's body. */
export interface WriteInput {
  readonly type: GraphQLInputObjectType;
  toBody(value: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

const SLOT_NAMES: Readonly<Record<WriteSlot, string>> = { create: 'Create', update: 'Update', patch: 'Patch' };

const SLOT_HELP: Readonly<Record<WriteSlot, (entity: string) => string>> = {
  create: (entity) => `The fields of a new ${entity}.`,
  update: (entity) => `Every writable field of an existing ${entity}; one left out is reset to its default.`,
  patch: (entity) => `The fields to change in an existing ${entity}; the others keep their values.`,
};

/** Undefined when the slot has no writable field (the mutation then takes no input). */
export function buildWriteInput(plan: EntityPlan, slot: WriteSlot, types: SchemaTypes): WriteInput | undefined {
  const description: WriteSlotDescription = plan.description.write[slot];
  if (description.fields.length === 0) return undefined;
  const required = new Set(slot === 'patch' ? [] : description.required);
  // GraphQL has no "one of these two": a required reference writable as its foreign-key column too says so instead.
  const eitherOf = new Map<string, string>();
  if (slot !== 'patch') {
    for (const [reference, column] of description.requiredOneOf) {
      eitherOf.set(reference, column);
      eitherOf.set(column, reference);
    }
  }
  const inputs: Record<string, GraphQLInputFieldConfig> = {};
  for (const field of description.fields) {
    const type = inputTypeOf(plan, field, types);
    const other = eitherOf.get(field.name);
    inputs[graphqlFieldName(field.name)] = {
      type: required.has(field.name) && !field.nullable ? new GraphQLNonNull(type) : type,
      ...(other === undefined ? {} : { description: `Required unless ${other} is given (send one of the two).` }),
    };
  }
  const type = types.add(
    new GraphQLInputObjectType({
      name: `${plan.typeName}${SLOT_NAMES[slot]}Input`,
      description: SLOT_HELP[slot](plan.typeName),
      fields: inputs,
    }),
    plan.typeName,
  );
  // By GraphQL name: a column of an embedded class is `price_amount` in the input, `price.amount` in the body.
  const byName = new Map(description.fields.map((field) => [graphqlFieldName(field.name), field]));
  return { type, toBody: (value) => toBody(value, byName) };
}

function inputTypeOf(
  plan: EntityPlan,
  field: WriteFieldDescription,
  types: SchemaTypes,
): GraphQLScalarType | GraphQLEnumType | GraphQLInputObjectType {
  if (field.kind !== 'reference' || !field.target)
    return types.leaf({
      entity: plan.typeName,
      field: field.name,
      kind: field.kind as ColumnKind,
      enumValues: field.enumValues,
      key: plan.description.primaryKeys.includes(field.name),
    });
  const { entity, key } = field.target;
  const name = `${entity}Reference`;
  const existing = types.get(name);
  if (existing instanceof GraphQLInputObjectType) return existing;
  return types.add(
    new GraphQLInputObjectType({
      name,
      description: `An existing ${entity}, by its ${key}.`,
      fields: { [key]: { type: new GraphQLNonNull(GraphQLID) } },
    }),
    entity,
  );
}

/** The body of the write: keys and references converted from `ID` text back to their column's kind. */
function toBody(
  value: Readonly<Record<string, unknown>>,
  fields: ReadonlyMap<string, WriteFieldDescription>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [graphqlName, inner] of Object.entries(value)) {
    const field = fields.get(graphqlName);
    const name = field?.name ?? graphqlName;
    if (field?.kind === 'reference' && field.target && inner !== null && typeof inner === 'object') {
      const { key, keyKind } = field.target;
      body[name] = { [key]: keyValue(keyKind, (inner as Record<string, unknown>)[key]) };
    } else if (field && field.kind !== 'reference') {
      body[name] = typeof inner === 'string' ? keyValue(field.kind, inner) : inner;
    } else {
      body[name] = inner;
    }
  }
  return body;
}

/** `ID` arrives as text; an integer key is handed on as a number so the slot's checks see its own kind. */
export function keyValue(kind: ColumnKind, value: unknown): unknown {
  if (typeof value === 'string' && kind === 'integer' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}
