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
import type { ExecuteRequest, ExecuteResponse, OperationGate, SvcContext } from '@svc/core';
import type { EntityPlan } from './entity-plan';
import type { FilterInput } from './filter-types';
import { toGraphqlError, type SvcErrorListener } from './graphql-errors';
import { pascal } from './graphql-names';
import { listPairs, type ListArgs } from './list-arguments';
import { collectFields, shapePairs } from './selection-query';
import { PAGE_EXTENSION, type PageSize } from './operation-cost';
import type { WriteInput, WriteSlot } from './write-input-types';

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;

export interface EntityFieldsArgs {
  readonly plan: EntityPlan;
  readonly plans: ReadonlyMap<string, EntityPlan>;
  readonly object: GraphQLObjectType;
  /** `<Entity>List`, when findMany is on. */
  readonly list?: GraphQLObjectType;
  readonly filter?: FilterInput;
  readonly writes: Partial<Record<WriteSlot, WriteInput>>;
  /** The engine's context from GraphQL's context value. */
  readonly contextOf: (contextValue: unknown) => SvcContext;
  /** Asked before each operation runs (the REST route's guards, in Nest). */
  readonly gate?: OperationGate;
  readonly onError?: SvcErrorListener;
}

/** Runs one operation with the caller's context, once the gate (if any) lets it. */
async function execute(
  args: EntityFieldsArgs,
  contextValue: unknown,
  request: Omit<ExecuteRequest, 'context'>,
): Promise<ExecuteResponse> {
  const context = args.contextOf(contextValue);
  const { service } = args.plan;
  if (args.gate) await args.gate({ service, operation: request.operation, context });
  return service.engine.execute({ ...request, context });
}

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

function selectionSets(info: GraphQLResolveInfo): SelectionSetNode[] {
  return info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

const ID_ARG: GraphQLFieldConfigArgumentMap = { id: { type: new GraphQLNonNull(GraphQLID) } };

export function queryFields(args: EntityFieldsArgs): Record<string, Field> {
  const { plan } = args;
  const fields: Record<string, Field> = {};
  if (plan.operations.has('findOne')) {
    fields[plan.one] = {
      type: args.object,
      description: `One ${plan.typeName} by its ${plan.description.lookup.param}.`,
      args: ID_ARG,
      resolve: async (_source, input, context, info) => {
        const { pairs } = shapePairs({
          plan,
          sets: selectionSets(info),
          fragments: info.fragments,
          variables: info.variableValues,
          served: plan.outputItem,
          plans: args.plans,
        });
        return (await execute(args, context, { operation: 'findOne', id: input['id'], query: pairs })).body;
      },
    };
  }
  if (args.list) {
    fields[plan.many] = {
      type: new GraphQLNonNull(args.list),
      description: `A page of ${plan.typeName} rows.`,
      args: listArguments(args),
      extensions: { [PAGE_EXTENSION]: pageSizeOf(plan) },
      resolve: async (_source, input, context, info) => {
        const items = collectFields(selectionSets(info), info.fragments, info.variableValues).get('items') ?? [];
        const { pairs } = shapePairs({
          plan,
          sets: items,
          fragments: info.fragments,
          variables: info.variableValues,
          served: plan.outputList,
          plans: args.plans,
        });
        const query = [...listPairs(plan, input as ListArgs, args.filter), ...pairs];
        return (await execute(args, context, { operation: 'findMany', query })).body;
      },
    };
  }
  return guardedAll(args, fields);
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

export function mutationFields(args: EntityFieldsArgs): Record<string, Field> {
  const { plan } = args;
  const name = pascal(plan.typeName);
  const fields: Record<string, Field> = {};
  const writeField = (operation: 'createOne' | 'updateOne' | 'patchOne', slot: WriteSlot, byId: boolean): Field => {
    const input = args.writes[slot];
    const fieldArgs: GraphQLFieldConfigArgumentMap = { ...(byId ? ID_ARG : {}) };
    if (input) fieldArgs['input'] = { type: new GraphQLNonNull(input.type) };
    return {
      type: args.object,
      args: fieldArgs,
      resolve: async (_source, values, context, info) => {
        const body = input ? input.toBody(values['input'] as Record<string, unknown>) : {};
        return writeThenAnswer(args, context, info, {
          request: { operation, id: values['id'], body },
          idOf: (response) => (byId ? values['id'] : response.resourceId),
        });
      },
    };
  };
  if (plan.operations.has('createOne')) fields[`create${name}`] = writeField('createOne', 'create', false);
  if (plan.operations.has('updateOne')) fields[`update${name}`] = writeField('updateOne', 'update', true);
  if (plan.operations.has('patchOne')) fields[`patch${name}`] = writeField('patchOne', 'patch', true);
  const removal = (operation: 'deleteOne' | 'purgeOne'): Field => ({
    type: new GraphQLNonNull(GraphQLBoolean),
    args: ID_ARG,
    resolve: async (_source, values, context) => {
      await execute(args, context, { operation, id: values['id'] });
      return true;
    },
  });
  if (plan.operations.has('deleteOne')) fields[`delete${name}`] = removal('deleteOne');
  if (plan.operations.has('restoreOne')) {
    fields[`restore${name}`] = {
      type: args.object,
      args: ID_ARG,
      resolve: async (_source, values, context, info) => {
        return writeThenAnswer(args, context, info, {
          request: { operation: 'restoreOne', id: values['id'] },
          idOf: () => values['id'],
        });
      },
    };
  }
  if (plan.operations.has('purgeOne')) fields[`purge${name}`] = removal('purgeOne');
  return guardedAll(args, fields);
}

/**
 * A write answers with the row as stored; when the selection reaches into relations, the row is read again with
 * them (one `findOne` with the same context), since a write's response embeds none. That read is checked before the
 * write (the caller's guards for `findOne`, the selection against its allowlists and include limits), so a read the
 * answer could not make refuses the mutation with nothing written, rather than failing after the commit.
 */
async function writeThenAnswer(
  args: EntityFieldsArgs,
  contextValue: unknown,
  info: GraphQLResolveInfo,
  write: { readonly request: Omit<ExecuteRequest, 'context'>; readonly idOf: (response: ExecuteResponse) => unknown },
): Promise<unknown> {
  const { plan } = args;
  const { pairs, hasRelations } = shapePairs({
    plan,
    sets: selectionSets(info),
    fragments: info.fragments,
    variables: info.variableValues,
    served: plan.outputItem,
    plans: args.plans,
  });
  const rereads = hasRelations && plan.operations.has('findOne');
  if (rereads) {
    const context = args.contextOf(contextValue);
    if (args.gate) await args.gate({ service: plan.service, operation: 'findOne', context });
    await plan.service.engine.checkQuery({ operation: 'findOne', id: write.request.id, query: pairs, context });
  }
  const response = await execute(args, contextValue, write.request);
  const id = write.idOf(response);
  if (!rereads || id === undefined) return response.body;
  return (await execute(args, contextValue, { operation: 'findOne', id, query: pairs })).body;
}
