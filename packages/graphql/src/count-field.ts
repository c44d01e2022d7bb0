/**
 * `<entities>Count(filter, search, withDeleted, onlyDeleted): Int!`: how many rows match, run through the engine's
 * `count` with the list's arguments as its wire pairs, so the same allowlists, limits, scope and policy apply.
 */
import { GraphQLInt, GraphQLNonNull, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import type { OperationDescription } from '@svc/core';
import type { EntityFieldsArgs } from './entity-fields-args';
import { matchPairs, viewArguments } from './list-arguments';
import { execute } from './run-operation';

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;

export function countField(args: EntityFieldsArgs, operation: OperationDescription): Field {
  const { plan } = args;
  const search = plan.description.search;
  return {
    type: new GraphQLNonNull(GraphQLInt),
    description: `How many ${plan.typeName} rows match.`,
    args: {
      ...(args.filter ? { filter: { type: args.filter.type, description: 'The rows to count.' } } : {}),
      ...(search ? { search: { type: GraphQLString, description: `Searches ${search.fields.join(', ')}.` } } : {}),
      ...viewArguments(plan),
    },
    resolve: async (_source, values, context) => {
      const response = await execute(args, context, {
        operation: operation.id,
        query: matchPairs(values, args.filter),
      });
      return (response.body as { total: number }).total;
    },
  };
}
