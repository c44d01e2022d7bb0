/**
 * `buildSvcSchema`: a GraphQL schema derived from the description of every served entity (never from Svc's
 * internals), for the Nest binding, for `createSvcGraphqlHandler`, or for an Apollo or Mercurius server.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  assertValidSchema,
  type GraphQLFieldConfig,
} from 'graphql';
import { ConfigurationException, type SvcContext, type SvcInstance, type SvcService } from '@svc/core';
import { type OperationGate } from '@svc/core/spi';
import { buildFilterInput } from './filter-types';
import type { SvcErrorListener } from './graphql-errors';
import { buildKeyType, buildListType, buildObjectType, type RelationTypes } from './object-types';
import { planEntity, type EntityPlan } from './entity-plan';
import { mutationFields, queryFields, type EntityFieldsArgs } from './root-fields';
import { SchemaTypes } from './schema-types';
import { DateTimeScalar, JsonScalar } from './svc-scalars';
import { WriteInputs, type WriteInput, type WriteSlot } from './write-input-types';

export interface SvcSchemaOptions {
  /**
   * Entities (by name) left out of the schema. An entity paged by `cursor` or `since` cannot be served over GraphQL
   * (its lists take only limit and offset) and is refused at bootstrap unless it is listed here. Relation fields to
   * a left-out entity are left out too. @default []
   */
  readonly exclude?: readonly string[];
  /**
   * The context every operation runs with (what policy, `filter.apply`, `set` and handlers see), from GraphQL's
   * context value. @default the context value itself (for example `{ request }`)
   */
  /**
   * Asked before each operation runs, with the service, the operation and the caller's context: throws to refuse. The
   * Nest binding runs the REST route's guards here. @default none
   */
  readonly gate?: OperationGate;
  readonly context?: (contextValue: unknown) => SvcContext;
  /** Called with each Svc error a field answers (for logging 5xx ones). */
  readonly onError?: SvcErrorListener;
}

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;

const WRITE_SLOTS: readonly WriteSlot[] = ['create', 'update', 'patch'];

/** Names GraphQL itself takes, which no entity type may take. */
const RESERVED = ['Query', 'Mutation', 'Subscription'];

/**
 * The schema of an instance's services (or of a list of services): `<entity>`, `<entities>` and `<entities>Aggregate`
 * queries, `create`/`update`/`patch`/`delete`/`restore`/`purge<Entity>` mutations for the operations that are on,
 * typed filters, write inputs and relation fields. Configuration problems throw a `ConfigurationException` naming the
 * entity.
 */
/** An operation besides the list that takes the list grammar's filter: a batch update or delete, an aggregate. */
const takesFilter = (operation: { readonly query: string }) =>
  operation.query === 'filter' || operation.query === 'aggregate';

export function buildSvcSchema(
  source: SvcInstance | readonly SvcService[],
  options: SvcSchemaOptions = {},
): GraphQLSchema {
  const services: readonly SvcService[] = isServiceList(source) ? source : source.services();
  const chosen = chooseServices(services, options.exclude ?? []);
  const served = new Set(chosen.keys());
  const plans = new Map<string, EntityPlan>();
  for (const [name, service] of chosen) plans.set(name, planEntity(service, served));
  const types = seededTypes();

  const objects = new Map<string, GraphQLObjectType>();
  const objectOf = (entity: string) => objects.get(entity)!;
  const relationTypes: RelationTypes = { objectOf, keyOf: (entity) => buildKeyType(plans.get(entity)!, types) };
  for (const plan of plans.values()) objects.set(plan.typeName, buildObjectType(plan, types, relationTypes));

  const query: Record<string, Field> = {};
  const mutation: Record<string, Field> = {};
  const contextOf = options.context ?? defaultContext;
  const inputs = new WriteInputs(plans, types);
  for (const plan of plans.values()) {
    const args: EntityFieldsArgs = {
      plan,
      plans,
      object: objectOf(plan.typeName),
      list: plan.list ? buildListType(plan, types, objectOf(plan.typeName)) : undefined,
      filter: plan.list || plan.operations.some(takesFilter) ? buildFilterInput(plan, types) : undefined,
      types,
      writes: writeInputsOf(plan, inputs),
      contextOf,
      gate: options.gate,
      onError: options.onError,
    };
    addFields(query, queryFields(args), plan.typeName);
    addFields(mutation, mutationFields(args), plan.typeName);
  }
  if (Object.keys(query).length === 0) {
    throw new ConfigurationException({
      path: 'graphql',
      message:
        'no served entity has findOne or findMany on, and a GraphQL schema needs at least one query. Turn a read on, or leave GraphQL off.',
    });
  }
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(Object.keys(mutation).length > 0
      ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }) }
      : {}),
  });
  assertValidSchema(schema);
  return schema;
}

/** One service per entity name (several controllers may serve one entity: the first registered is its face). */
function chooseServices(services: readonly SvcService[], exclude: readonly string[]): Map<string, SvcService> {
  const excluded = new Set(exclude);
  const chosen = new Map<string, SvcService>();
  for (const service of services) {
    const name = service.describe().name;
    if (!excluded.has(name) && !chosen.has(name)) chosen.set(name, service);
  }
  for (const name of excluded) {
    if (!services.some((service) => service.describe().name === name))
      throw new ConfigurationException({
        path: 'graphql.exclude',
        message: `names '${name}', which is not a served entity. Served: ${[...chosen.keys()].join(', ') || 'none'}.`,
      });
  }
  return chosen;
}

/** A type registry holding the names GraphQL itself takes, so no entity type can take them. */
function seededTypes(): SchemaTypes {
  const types = new SchemaTypes();
  for (const scalar of [GraphQLString, GraphQLInt, GraphQLFloat, GraphQLBoolean, GraphQLID, DateTimeScalar, JsonScalar])
    types.add(scalar, 'GraphQL');
  for (const name of RESERVED) types.add(new GraphQLObjectType({ name, fields: {} }), 'GraphQL');
  return types;
}

/** The write inputs of the write operations that are on. */
function writeInputsOf(plan: EntityPlan, inputs: WriteInputs): Partial<Record<WriteSlot, WriteInput>> {
  const writes: Partial<Record<WriteSlot, WriteInput>> = {};
  for (const slot of WRITE_SLOTS) {
    if (!plan.operations.some((operation) => operation.body === slot)) continue;
    const input = inputs.of(plan.typeName, slot);
    if (input) writes[slot] = input;
  }
  return writes;
}

function addFields(into: Record<string, Field>, fields: Record<string, Field>, entity: string): void {
  for (const [name, field] of Object.entries(fields)) {
    if (into[name]) {
      throw new ConfigurationException({
        entity,
        path: 'graphql',
        message: `needs the root field '${name}', which another entity already takes. Leave one of them out of GraphQL (exclude) or rename it.`,
      });
    }
    into[name] = field;
  }
}

function defaultContext(contextValue: unknown): SvcContext {
  return contextValue !== null && typeof contextValue === 'object' ? (contextValue as SvcContext) : {};
}

function isServiceList(source: SvcInstance | readonly SvcService[]): source is readonly SvcService[] {
  return Array.isArray(source);
}
