/**
 * The mutation field of a batch write, rendered from what its description takes and answers: `input` as a list of
 * the slot's input (`createBooks(input: [BookCreateInput!]!)`) or one patch, `filter` where it chooses rows by filter
 * (`updateBooks(filter: BookFilter!, input: BookPatchInput!)`, `deleteBooks(filter: BookFilter!)`). It answers
 * `<Entity>Batch` (the rows written, their count, and an upsert's created and updated counts) or, where the rows are
 * gone, `<Entity>BatchKeys` (their keys).
 */
import {
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLResolveInfo,
} from 'graphql';
import type { OperationDescription } from '@svc/core';
import type { EntityFieldsArgs } from './entity-fields-args';
import { execute } from './run-operation';
import type { WriteSlot } from './write-input-types';
import { callerShape, collectFields, shapeCache, shapePairs, type ShapeCache } from './selection-query';
import { withRefusals, type Refusals } from './field-access';

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;

/** The field, or undefined where the schema cannot say what it takes (no filter input, no write slot input). */
export function batchField(args: EntityFieldsArgs, operation: OperationDescription): Field | undefined {
  const slot = operation.body === 'none' ? undefined : args.writes[operation.body as WriteSlot];
  if (operation.body !== 'none' && !slot) return undefined;
  const byFilter = operation.query === 'filter';
  if (byFilter && !args.filter) return undefined;
  const fieldArgs: GraphQLFieldConfigArgumentMap = {};
  if (byFilter)
    fieldArgs['filter'] = { type: new GraphQLNonNull(args.filter!.type), description: 'The rows to change.' };
  if (slot) {
    const one = new GraphQLNonNull(slot.type);
    fieldArgs['input'] = { type: operation.items ? new GraphQLNonNull(new GraphQLList(one)) : one };
  }
  const shapeOf = shapeCache();
  return {
    type: new GraphQLNonNull(operation.body === 'none' ? keysType(args) : rowsType(args)),
    description: operation.wording?.sentence ?? operation.summary,
    args: fieldArgs,
    resolve: async (_source, values, context, info) => {
      const input = values['input'];
      const body =
        slot === undefined
          ? undefined
          : Array.isArray(input)
            ? input.map((item, index) => slot.toBody(item as Record<string, unknown>, `[${index}].`))
            : slot.toBody(input as Record<string, unknown>);
      const filter = byFilter ? args.filter!.toExpression(values['filter'] as Record<string, unknown>) : undefined;
      const response = await execute(args, context, {
        operation: operation.id,
        ...(body !== undefined ? { body } : {}),
        ...(filter ? { query: [['filter', JSON.stringify(filter)]] } : {}),
      });
      const answer = response.body as { items: unknown[]; total: number; meta?: Record<string, number> };
      // The rows written, each with the fields the caller's role may not read answered as refused (`field-access.ts`).
      const items =
        operation.body === 'none'
          ? answer.items
          : withRefusals(answer.items, rowRefusals(args, info, context, shapeOf));
      return { items, total: answer.total, ...answer.meta };
    },
  };
}

/** What of the rows a batch answers the caller may not read (none but for an entity with roles views). */
function rowRefusals(
  args: EntityFieldsArgs,
  info: GraphQLResolveInfo,
  contextValue: unknown,
  shapeOf: ShapeCache,
): Refusals | undefined {
  if (!args.plan.perCaller) return undefined;
  const shape = shapeOf(info.fieldNodes, info.fragments, () =>
    shapePairs({
      plan: args.plan,
      sets:
        collectFields(
          info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : [])),
          info.fragments,
          info.variableValues,
        ).get('items') ?? [],
      fragments: info.fragments,
      variables: info.variableValues,
      served: 'item',
      plans: args.plans,
    }),
  );
  return callerShape(shape, args.contextOf(contextValue)).refusals;
}

/** `<Entity>Batch`: the rows a batch wrote, in order, as the entity's type serves them (relations are not embedded). */
function rowsType(args: EntityFieldsArgs): GraphQLObjectType {
  const { plan, types } = args;
  const name = `${plan.typeName}Batch`;
  const existing = types.get(name);
  if (existing instanceof GraphQLObjectType) return existing;
  return types.add(
    new GraphQLObjectType({
      name,
      description: `The ${plan.typeName} rows a batch wrote, in input order.`,
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(args.object))) },
        total: { type: new GraphQLNonNull(GraphQLInt), description: 'How many rows the batch wrote.' },
        created: { type: GraphQLInt, description: 'An upsert: how many items created a row.' },
        updated: { type: GraphQLInt, description: 'An upsert: how many items matched an existing row.' },
      },
    }),
    plan.typeName,
  );
}

/** `<Entity>BatchKeys`: the keys of the rows a batch deleted. */
function keysType(args: EntityFieldsArgs): GraphQLObjectType {
  const { plan, types } = args;
  const name = `${plan.typeName}BatchKeys`;
  const existing = types.get(name);
  if (existing instanceof GraphQLObjectType) return existing;
  // The fields the entity's single-row routes look a row up by (`identifier.field`, else the primary key).
  const key = new GraphQLObjectType({
    name: `${plan.typeName}BatchKey`,
    fields: Object.fromEntries(plan.description.lookup.fields.map((field) => [field, { type: GraphQLID }])),
  });
  return types.add(
    new GraphQLObjectType({
      name,
      description: `The keys of the ${plan.typeName} rows a batch deleted.`,
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(key))) },
        total: { type: new GraphQLNonNull(GraphQLInt), description: 'How many rows the batch deleted.' },
      },
    }),
    plan.typeName,
  );
}
