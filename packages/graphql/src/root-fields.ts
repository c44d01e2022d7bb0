/**
 * The query and mutation fields of one entity, each resolved by `service.engine.execute` with the caller's context,
 * so policy, `filter.apply`, `set` and every other stage see the request exactly as over REST. Only operations that
 * are on appear.
 */
import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import { type OperationDescription } from '@svc/core';
import { checkGated, type ExecuteRequest, type ExecuteResponse } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import { toGraphqlError } from './graphql-errors';
import { pascal } from './graphql-names';
import { listPairs, type ListArgs } from './list-arguments';
import { collectFields, shapeCache, shapePairs, type Shape, type ShapeCache } from './selection-query';
import { PAGE_EXTENSION, type PageSize } from './operation-cost';
import type { WriteSlot } from './write-input-types';
import { batchField } from './batch-fields';
import { aggregateField } from './aggregate-fields';
import { execute } from './run-operation';
import type { EntityFieldsArgs } from './entity-fields-args';

export type { EntityFieldsArgs };

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;

/** Any failure of a field (the engine's, or an argument check's) becomes a GraphQL error carrying the problem. */
function guarded(args: EntityFieldsArgs, field: Field): Field {
  const resolve = field.resolve!;
  return {
    ...field,
    resolve: async (source, values, context, info) => {
      try {
        return await resolve(source, values, context, info);
      } catch (error) {
        throw toGraphqlError(error, args.onError);
      }
    },
  };
}

function guardedAll(args: EntityFieldsArgs, fields: Record<string, Field>): Record<string, Field> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, guarded(args, field)]));
}

/** The selection of a field that answers one row, as the `select` and `include` pairs of a read by id. */
function itemShape(args: EntityFieldsArgs, info: GraphQLResolveInfo, shapeOf: ShapeCache): Shape {
  return shapeOf(info.fieldNodes, info.fragments, () =>
    shapePairs({
      plan: args.plan,
      sets: selectionSets(info),
      fragments: info.fragments,
      variables: info.variableValues,
      served: args.plan.outputItem,
      plans: args.plans,
    }),
  );
}

function selectionSets(info: GraphQLResolveInfo): SelectionSetNode[] {
  return info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

const ID_ARG: GraphQLFieldConfigArgumentMap = { id: { type: new GraphQLNonNull(GraphQLID) } };

/**
 * The query fields: `<entity>(id)` for the read by id, `<entities>(...)` for the list, and `<entities>Aggregate(...)`
 * for the aggregate (`aggregate-fields.ts`), where they are on.
 */
export function queryFields(args: EntityFieldsArgs): Record<string, Field> {
  const fields: Record<string, Field> = {};
  const { item, list } = args.plan;
  if (item) fields[args.plan.one] = itemField(args, item);
  if (list && args.list) fields[args.plan.many] = listField(args, list, args.list);
  const aggregate = args.plan.operations.find((operation) => operation.query === 'aggregate');
  const field = aggregate && aggregateField(args, aggregate);
  if (field) fields[`${args.plan.many}Aggregate`] = field;
  return guardedAll(args, fields);
}

function itemField(args: EntityFieldsArgs, operation: OperationDescription): Field {
  const { plan } = args;
  const shapeOf = shapeCache();
  return {
    type: args.object,
    description: `One ${plan.typeName} by its ${plan.description.lookup.param}.`,
    args: ID_ARG,
    resolve: async (_source, input, context, info) => {
      const { pairs } = itemShape(args, info, shapeOf);
      return (await execute(args, context, { operation: operation.id, id: input['id'], query: pairs })).body;
    },
  };
}

function listField(args: EntityFieldsArgs, operation: OperationDescription, list: GraphQLObjectType): Field {
  const { plan } = args;
  const shapeOf = shapeCache();
  return {
    type: new GraphQLNonNull(list),
    description: `A page of ${plan.typeName} rows.`,
    args: listArguments(args),
    extensions: { [PAGE_EXTENSION]: pageSizeOf(plan) },
    resolve: async (_source, input, context, info) => {
      const { pairs } = shapeOf(info.fieldNodes, info.fragments, () =>
        shapePairs({
          plan,
          sets: collectFields(selectionSets(info), info.fragments, info.variableValues).get('items') ?? [],
          fragments: info.fragments,
          variables: info.variableValues,
          served: plan.outputList,
          plans: args.plans,
        }),
      );
      const query = [...listPairs(plan, input as ListArgs, args.filter), ...pairs];
      return (await execute(args, context, { operation: operation.id, query })).body;
    },
  };
}

/** What the cost of an operation counts a page of this list as holding. */
function pageSizeOf(plan: EntityPlan): PageSize {
  const { defaultLimit, maxLimit } = plan.description.pagination;
  // `none` answers the whole match set: counted as the largest page the entity's settings name.
  if (plan.paging === 'none') return { defaultLimit: maxLimit, maxLimit };
  return { defaultLimit, maxLimit, limitArgument: 'limit' };
}

function listArguments(args: EntityFieldsArgs): GraphQLFieldConfigArgumentMap {
  const { plan } = args;
  const { description } = plan;
  const map: GraphQLFieldConfigArgumentMap = {};
  if (plan.paging !== 'none') {
    const { defaultLimit, maxLimit } = description.pagination;
    map['limit'] = { type: GraphQLInt, description: `Page size (default ${defaultLimit}, at most ${maxLimit}).` };
    map['offset'] = {
      type: GraphQLInt,
      description:
        plan.paging === 'page' ? 'Rows to skip: 0 or a multiple of limit.' : 'Rows to skip (0 for the first page).',
    };
  }
  if (args.filter) map['filter'] = { type: args.filter.type };
  if (!description.pagination.ownsSort && description.sort.fields.length > 0) {
    map['sort'] = {
      type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
      description: `Sort keys, '-' first for descending: ${description.sort.fields.join(', ')}.`,
    };
  }
  if (description.search) {
    map['search'] = { type: GraphQLString, description: `Searches ${description.search.fields.join(', ')}.` };
  }
  return map;
}

/**
 * The mutation fields, one per write that is on, named by the operation (`createOne` -> `create<Entity>`): `id` when it
 * addresses a row, `input` in its write slot; it answers the row as stored, or `true` where the row is gone. A batch
 * write is named for the rows (`createMany` -> `create<Entities>`) and answers them all (`batch-fields.ts`).
 */
export function mutationFields(args: EntityFieldsArgs): Record<string, Field> {
  const { plan } = args;
  const name = pascal(plan.typeName);
  const fields: Record<string, Field> = {};
  for (const operation of plan.operations) {
    if (operation.kind !== 'write') continue;
    if (operation.answers === 'batch') {
      const field = batchField(args, operation);
      if (field) fields[`${operation.id.replace(/Many$/, '')}${pascal(plan.many)}`] = field;
    } else fields[`${operation.id.replace(/One$/, '')}${name}`] = writeField(args, operation);
  }
  return guardedAll(args, fields);
}

function writeField(args: EntityFieldsArgs, operation: OperationDescription): Field {
  const byId = operation.takesId;
  const slot = operation.body === 'create' || operation.body === 'update' || operation.body === 'patch';
  const input = slot ? args.writes[operation.body as WriteSlot] : undefined;
  const fieldArgs: GraphQLFieldConfigArgumentMap = { ...(byId ? ID_ARG : {}) };
  if (input) fieldArgs['input'] = { type: new GraphQLNonNull(input.type) };
  const shapeOf = shapeCache();
  if (operation.answers === 'none') {
    return {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: fieldArgs,
      resolve: async (_source, values, context) => {
        await execute(args, context, { operation: operation.id, id: values['id'] });
        return true;
      },
    };
  }
  return {
    type: args.object,
    args: fieldArgs,
    resolve: async (_source, values, context, info) => {
      const body = input ? input.toBody(values['input'] as Record<string, unknown>) : slot ? {} : undefined;
      return writeThenAnswer(args, context, info, shapeOf, {
        request: { operation: operation.id, ...(byId ? { id: values['id'] } : {}), ...(body ? { body } : {}) },
        idOf: (response) => (byId ? values['id'] : response.resourceId),
      });
    },
  };
}

/**
 * A write answers with the row as stored; when the selection reaches into relations, the row is read again with
 * them (one read by id with the same context), since a write's response embeds none. That read is checked before the
 * write (the caller's guards for the read by id, the selection against its allowlists and include limits), so a read the
 * answer could not make refuses the mutation with nothing written, rather than failing after the commit.
 */
async function writeThenAnswer(
  args: EntityFieldsArgs,
  contextValue: unknown,
  info: GraphQLResolveInfo,
  shapeOf: ShapeCache,
  write: { readonly request: Omit<ExecuteRequest, 'context'>; readonly idOf: (response: ExecuteResponse) => unknown },
): Promise<unknown> {
  const { plan } = args;
  const { pairs, hasRelations } = itemShape(args, info, shapeOf);
  const reread = hasRelations ? plan.item : undefined;
  if (reread) {
    const request = { operation: reread.id, id: write.request.id, query: pairs };
    await checkGated({ service: plan.service, request, context: args.contextOf(contextValue), gate: args.gate });
  }
  const response = await execute(args, contextValue, write.request);
  const id = write.idOf(response);
  if (!reread || id === undefined) return response.body;
  return (await execute(args, contextValue, { operation: reread.id, id, query: pairs })).body;
}
