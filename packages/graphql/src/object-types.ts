/**
 * The output types of one entity: `<Entity>` with the columns it serves and its includable relations, and
 * `<Entity>List`, the list envelope GraphQL can select (items, total, limit, offset).
 */
import {
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLFieldConfig,
  type GraphQLOutputType,
} from 'graphql';
import type { FieldDescription } from '@svc/core';
import type { EntityPlan } from './entity-plan';
import type { SchemaTypes } from './schema-types';

/**
 * A column is non-null only when it can never come back missing: the column is not nullable, every read that serves
 * the type (`findOne`, each `findMany` item, an included row) serves it, and every role reads it (a role that may
 * not is answered null with a field error, `field-access.ts`).
 */
function alwaysServed(plan: EntityPlan, field: FieldDescription): boolean {
  const roles = plan.description.roles;
  return (
    !field.nullable &&
    plan.outputItem.has(field.name) &&
    plan.outputList.has(field.name) &&
    plan.readable.has(field.name) &&
    (!roles || roles.read[field.name]?.length === roles.names.length)
  );
}

/** What a relation field is typed with: the target's object type, or its key type for relations read by key. */
export interface RelationTypes {
  readonly objectOf: (entity: string) => GraphQLObjectType;
  readonly keyOf: (entity: string) => GraphQLObjectType;
}

export function buildObjectType(plan: EntityPlan, types: SchemaTypes, relations: RelationTypes): GraphQLObjectType {
  return types.add(
    new GraphQLObjectType({
      name: plan.typeName,
      description: `${plan.typeName}: the fields it serves, and the relations it can include.`,
      fields: () => {
        const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
        for (const [name, field] of plan.columns) {
          const leaf = types.leaf({
            entity: plan.typeName,
            field: field.name,
            kind: field.kind,
            enumValues: field.enumValues,
            key: field.primary,
          });
          const type = alwaysServed(plan, field) ? new GraphQLNonNull(leaf) : leaf;
          // A column of an embedded class is read from the row by its path (`price.amount`).
          fields[name] = name === field.name ? { type } : { type, ...propertyField(field.name) };
        }
        for (const relation of plan.relations.values()) {
          const target = relation.keysOnly ? relations.keyOf(relation.target) : relations.objectOf(relation.target);
          // A role may be refused the relation itself (answered null with a field error): per caller, it may be null.
          const list = new GraphQLList(new GraphQLNonNull(target));
          const type: GraphQLOutputType = relation.many ? (plan.perCaller ? list : new GraphQLNonNull(list)) : target;
          fields[relation.name] = {
            type,
            description: `Loaded with the ${plan.typeName} read that selects it (one batched load per relation), within ${relation.target}'s own scope.`,
          };
        }
        return fields;
      },
    }),
    plan.typeName,
  );
}

export function buildListType(plan: EntityPlan, types: SchemaTypes, item: GraphQLObjectType): GraphQLObjectType {
  const int = new GraphQLNonNull(GraphQLInt);
  return types.add(
    new GraphQLObjectType({
      name: `${plan.typeName}List`,
      description: `A page of ${plan.typeName} rows.`,
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))) },
        total: { type: GraphQLInt, description: 'How many rows match, across every page; null when counting is off.' },
        limit: { type: int, description: 'The page size in force.' },
        offset: { type: int, description: 'How many rows the page skips.' },
      },
    }),
    plan.typeName,
  );
}

/** `<Entity>Key`: an entity's key alone, the type of a relation read by key (no join, no other column). */
export function buildKeyType(plan: EntityPlan, types: SchemaTypes): GraphQLObjectType {
  const existing = types.get(`${plan.typeName}Key`);
  if (existing instanceof GraphQLObjectType) return existing;
  return types.add(
    new GraphQLObjectType({
      name: `${plan.typeName}Key`,
      description: `The key of a ${plan.typeName}, as a relation read by key serves it.`,
      fields: Object.fromEntries(
        plan.description.primaryKeys.map((key) => [key, { type: new GraphQLNonNull(GraphQLID) }]),
      ),
    }),
    plan.typeName,
  );
}

/**
 * A field read from the row's `property` rather than its own name: its resolver for graphql-js, and the property
 * named in its extensions for the planned run, which copies row values without calling resolvers.
 */
export function propertyField(property: string): Pick<GraphQLFieldConfig<unknown, unknown>, 'resolve' | 'extensions'> {
  return {
    resolve: (row) => (row as Record<string, unknown>)[property],
    extensions: { [ROW_PROPERTY]: property },
  };
}

/** The extension naming the row property a field reads (see `propertyField`). */
export const ROW_PROPERTY = 'svcRowProperty';
