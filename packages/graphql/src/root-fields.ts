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
import { type AnswerShape, type OperationDescription } from '@svc/core';
import { checkGated, type ExecuteRequest, type ExecuteResponse } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import { toGraphqlError } from './graphql-errors';
import { pascal } from './graphql-names';
import { listPairs, viewArguments, type ListArgs } from './list-arguments';
import {
  callerShape,
  collectFields,
  shapeCache,
  shapePairs,
  type CallerShape,
  type Shape,
  type ShapeCache,
} from './selection-query';
import { withRefusals } from './field-access';
import { PAGE_EXTENSION, type PageSize } from './operation-cost';
import type { WriteSlot } from './write-input-types';
import { batchField } from './batch-fields';
import { aggregateField } from './aggregate-fields';
import { countField } from './count-field';
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

/**
 * The selection of a field that answers one row, as the `select` and `include` pairs of a read by id for this
 * caller.
 */
function itemShape(
  args: EntityFieldsArgs,
  contextValue: unknown,
  info: GraphQLResolveInfo,
  shapeOf: ShapeCache,
): CallerShape {
  const shape = shapeOf(info.fieldNodes, info.fragments, () =>
    shapePairs({
      plan: args.plan,
      sets: selectionSets(info),
      fragments: info.fragments,
      variables: info.variableValues,
      served: 'item',
      plans: args.plans,
    }),
  );
  return callerShape(shape, args.contextOf(contextValue));
}

function selectionSets(info: GraphQLResolveInfo): SelectionSetNode[] {
  return info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

const ID_ARG: GraphQLFieldConfigArgumentMap = { id: { type: new GraphQLNonNull(GraphQLID) } };

/** One root field: where it goes, its name, and the field. */
interface RootField {
  readonly root: 'query' | 'mutation';
  readonly name: string;
  readonly field: Field;
}

/**
 * The root field of each answer shape, one builder per shape (a new shape does not compile until it has one):
 * `<entity>(id)` for the read by id, `<entities>(...)` for the list, `<entities>Aggregate(...)` for the aggregate
 * (`aggregate-fields.ts`), `<entities>Count(...)` for the count (`count-field.ts`), a mutation named by the operation for a one-row write (`createOne` -> `createBook`,
 * answering the row, or `true` where the row is gone), and one named for the rows for a batch (`createMany` ->
 * `createBooks`, `batch-fields.ts`). A relation's member list has none: GraphQL reaches members through relation fields.
 */
const ROOT_FIELDS: {
  readonly [Shape in AnswerShape]: (args: EntityFieldsArgs, operation: OperationDescription) => RootField | undefined;
} = {
  item: (args, operation) =>
    operation.kind === 'read'
      ? { root: 'query', name: args.plan.one, field: itemField(args, operation) }
      : { root: 'mutation', name: oneRowName(args, operation), field: writeField(args, operation) },
  list: (args, operation) =>
    args.list ? { root: 'query', name: args.plan.many, field: listField(args, operation, args.list) } : undefined,
  none: (args, operation) => ({
    root: 'mutation',
    name: oneRowName(args, operation),
    field: writeField(args, operation),
  }),
  batch: (args, operation) => {
    const field = batchField(args, operation);
    return field
      ? { root: 'mutation', name: `${operation.id.replace(/Many$/, '')}${pascal(args.plan.many)}`, field }
      : undefined;
  },
  aggregate: (args, operation) => {
    const field = aggregateField(args, operation);
    return field ? { root: 'query', name: `${args.plan.many}Aggregate`, field } : undefined;
  },
  total: (args, operation) => ({ root: 'query', name: `${args.plan.many}Count`, field: countField(args, operation) }),
  members: () => undefined,
};

function oneRowName(args: EntityFieldsArgs, operation: OperationDescription): string {
  return `${operation.id.replace(/One$/, '')}${pascal(args.plan.typeName)}`;
}

/** The extension of a root field that names the operation it runs. */
export const OPERATION_EXTENSION = 'svcOperation';

/** The root fields of each entity's operations that are on, each built once. */
const built = new WeakMap<EntityFieldsArgs, readonly RootField[]>();

/** The query or mutation fields of the entity's operations that are on, each guarded. */
function rootFields(args: EntityFieldsArgs, root: RootField['root']): Record<string, Field> {
  let all = built.get(args);
  if (!all) {
    // Each field names its entity and operation (`extensions.svcOperation`), for tools that map fields to operations.
    all = args.plan.operations.flatMap((operation) => {
      const root = ROOT_FIELDS[operation.answers](args, operation);
      if (!root) return [];
      const named = { entity: args.plan.description.name, operation: operation.id };
      const extensions = { ...root.field.extensions, [OPERATION_EXTENSION]: named };
      return [{ ...root, field: { ...root.field, extensions } }];
    });
    built.set(args, all);
  }
  return guardedAll(
    args,
    Object.fromEntries(all.filter((field) => field.root === root).map((field) => [field.name, field.field])),
  );
}

/** The query fields of the entity. */
export function queryFields(args: EntityFieldsArgs): Record<string, Field> {
  return rootFields(args, 'query');
}

function itemField(args: EntityFieldsArgs, operation: OperationDescription): Field {
  const { plan } = args;
  const shapeOf = shapeCache();
  return {
    type: args.object,
    description: `One ${plan.typeName} by its ${plan.description.lookup.param}.`,
    args: ID_ARG,
    resolve: async (_source, input, context, info) => {
      const { pairs, refusals } = itemShape(args, context, info, shapeOf);
      const response = await execute(args, context, { operation: operation.id, id: input['id'], query: pairs });
      return withRefusals(response.body, refusals);
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
      const shape: Shape = shapeOf(info.fieldNodes, info.fragments, () =>
        shapePairs({
          plan,
          sets: collectFields(selectionSets(info), info.fragments, info.variableValues).get('items') ?? [],
          fragments: info.fragments,
          variables: info.variableValues,
          served: 'list',
          plans: args.plans,
        }),
      );
      const { pairs, refusals } = callerShape(shape, args.contextOf(context));
      const query = [...listPairs(plan, input as ListArgs, args.filter), ...pairs];
      const body = (await execute(args, context, { operation: operation.id, query })).body;
      if (!refusals) return body;
      const page = body as { items: unknown };
      return { ...page, items: withRefusals(page.items, refusals) };
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
  return { ...map, ...viewArguments(plan) };
}

/** The mutation fields of the entity. */
export function mutationFields(args: EntityFieldsArgs): Record<string, Field> {
  return rootFields(args, 'mutation');
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
  const { pairs, hasRelations, refusals } = itemShape(args, contextValue, info, shapeOf);
  const reread = hasRelations ? plan.item : undefined;
  if (reread) {
    const request = { operation: reread.id, id: write.request.id, query: pairs };
    await checkGated({ service: plan.service, request, context: args.contextOf(contextValue), gate: args.gate });
  }
  const response = await execute(args, contextValue, write.request);
  const id = write.idOf(response);
  if (!reread || id === undefined) return withRefusals(response.body, refusals);
  return withRefusals((await execute(args, contextValue, { operation: reread.id, id, query: pairs })).body, refusals);
}
