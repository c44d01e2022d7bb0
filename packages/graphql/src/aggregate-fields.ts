/**
 * The query field of `aggregate`, `<entities>Aggregate(filter, search, groupBy, sort, limit, offset)`, rendered from
 * the aggregate its description gives; an entity that serves no aggregate has no such field. How it is typed:
 *
 * - Group fields keep their names, except that a to-one path's dot (no GraphQL name holds one) becomes an underscore:
 *   `author.country` is `author_country`, as a value of `<Entity>AggregateGroupField` (what `groupBy` takes) and as a
 *   field of `<Entity>AggregateGroup` (which reads the answer's `author.country`). Two group fields GraphQL would
 *   name alike refuse to boot.
 * - Each function is an object of the fields that take it (`<Entity>AggregateSum { pages price }`): `countDistinct`
 *   Int; `avg` Float; `min` and `max` the column's own type, as `<Entity>` serves it; `sum` a String for decimal and
 *   bigint columns (their exact text, as `<Entity>` serves those columns), else Float. An integer column's sum is a
 *   Float rather than an Int, as it outgrows 32 bits long before the column does; past 2^53, where the engine answers
 *   its text, it is a field error instead of a rounded number.
 * - The functions a call computes are the ones it selects: the fields under `items { sum { ... } }` (aliases merged,
 *   fragments expanded, `@skip` and `@include` applied, as a list's columns are read) become `sum=`, so a client names
 *   each once. `count` is always answered.
 * - `sort` takes REST's keys as strings: `count`, `sum.pages`, or a grouped field by its GraphQL name or its path,
 *   `-` first for descending. Ordering by a function computes it, selected or not.
 * - For the cost rule its page holds `limit` groups, else `maxGroups`, as a list's page holds `limit` rows.
 */
import {
  GraphQLEnumType,
  GraphQLError,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import { ConfigurationException, type AggregateDescription, type OperationDescription } from '@svc/core';
import { fieldsTaking, MEASURE_FUNCTIONS, type MeasureFunction } from '@svc/core/spi';
import type { EntityFieldsArgs } from './entity-fields-args';
import { graphqlFieldName, isGraphqlName, pascal } from './graphql-names';
import { PAGE_EXTENSION, type PageSize } from './operation-cost';
import { execute } from './run-operation';
import { matchPairs, viewArguments } from './list-arguments';
import { collectFields } from './selection-query';

type Field = GraphQLFieldConfig<unknown, unknown, Record<string, unknown>>;
type Values = Readonly<Record<string, unknown>>;
type ObjectFields = Record<string, GraphQLFieldConfig<Values, unknown>>;
type AggregateField = AggregateDescription['fields'][number];

/** What each function answers, by field; only the fields selected under it are computed. */
const FUNCTION_HELP: Readonly<Record<MeasureFunction, string>> = {
  countDistinct: 'By field: how many distinct non-null values the group holds.',
  sum: 'By field: the sum over the group, null where it holds no value.',
  avg: 'By field: the average over the group, null where it holds no value.',
  min: 'By field: the smallest value in the group, null where it holds none.',
  max: 'By field: the largest value in the group, null where it holds none.',
};

/** How a sum is spelled, by column kind. */
const SUM_HELP: Readonly<Record<string, string>> = {
  decimal: 'Exact, as decimal text.',
  bigint: 'Exact, as integer text.',
  integer: 'Exact up to 2^53; past it, a field error.',
};

/** The field, or undefined where the operation describes no aggregate. */
export function aggregateField(args: EntityFieldsArgs, operation: OperationDescription): Field | undefined {
  const aggregate = operation.aggregate;
  if (!aggregate) return undefined;
  const { plan } = args;
  const groups = groupNames(plan.typeName, aggregate);
  requireFieldNames(plan.typeName, aggregate);
  const fieldArgs: GraphQLFieldConfigArgumentMap = {};
  if (args.filter) fieldArgs['filter'] = { type: args.filter.type, description: 'The rows to group.' };
  const search = plan.description.search;
  if (search) fieldArgs['search'] = { type: GraphQLString, description: `Searches ${search.fields.join(', ')}.` };
  if (groups.size > 0) {
    fieldArgs['groupBy'] = {
      type: new GraphQLList(new GraphQLNonNull(groupFieldEnum(args, groups))),
      description: 'One group per distinct combination of these fields; none: one group of every matching row.',
    };
  }
  fieldArgs['sort'] = {
    type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
    description:
      "Order of the groups, '-' first for descending: count, a function of a field (sum.pages), or a field this call groups by.",
  };
  fieldArgs['limit'] = {
    type: GraphQLInt,
    description: `Groups per page (default and at most ${aggregate.maxGroups}).`,
  };
  fieldArgs['offset'] = { type: GraphQLInt, description: 'Groups to skip (0 for the first page).' };
  Object.assign(fieldArgs, viewArguments(plan));
  const page: PageSize = { defaultLimit: aggregate.maxGroups, maxLimit: aggregate.maxGroups, limitArgument: 'limit' };
  return {
    type: new GraphQLNonNull(listType(args, aggregate, groups)),
    description: operation.wording?.sentence ?? operation.summary,
    args: fieldArgs,
    extensions: { [PAGE_EXTENSION]: page },
    resolve: async (_source, values, context, info) => {
      const query = aggregatePairs(args, values, { groups, aggregate }, selectedFunctions(info, aggregate));
      return (await execute(args, context, { operation: operation.id, query })).body;
    },
  };
}

/** Each group field by its GraphQL name (`author_country` for `author.country`). */
function groupNames(entity: string, aggregate: AggregateDescription): Map<string, string> {
  const names = new Map<string, string>();
  const fail = (message: string) => new ConfigurationException({ entity, path: 'aggregate.groupBy', message });
  for (const { field } of aggregate.groupBy) {
    const name = graphqlFieldName(field);
    const taken = names.get(name);
    if (taken !== undefined) {
      throw fail(
        `names '${taken}' and '${field}', which GraphQL would both call '${name}' (a path's dot becomes _). Group by one of them, or leave ${entity} out of GraphQL with exclude: ['${entity}'].`,
      );
    }
    if (!isGraphqlName(name) || ['true', 'false', 'null'].includes(name)) {
      throw fail(
        `names '${field}', whose GraphQL name '${name}' is not a valid enum value (letters, digits and _; not starting with a digit or __; not true, false or null). Leave it out, or leave ${entity} out of GraphQL with exclude: ['${entity}'].`,
      );
    }
    names.set(name, field);
  }
  return names;
}

/** A field listed in `aggregate.fields` need not be served, so its name is not checked with the entity's columns. */
function requireFieldNames(entity: string, aggregate: AggregateDescription): void {
  for (const { field } of aggregate.fields) {
    if (isGraphqlName(graphqlFieldName(field))) continue;
    throw new ConfigurationException({
      entity,
      path: `aggregate.fields.${field}`,
      message: `names '${field}', which is not a valid GraphQL name (letters, digits and _; not starting with a digit or __). Leave it out, or leave ${entity} out of GraphQL with exclude: ['${entity}'].`,
    });
  }
}

/** `<Entity>AggregateGroupField`: the fields a call may group by, each standing for its path. */
function groupFieldEnum(args: EntityFieldsArgs, groups: ReadonlyMap<string, string>): GraphQLEnumType {
  const { typeName } = args.plan;
  return args.types.add(
    new GraphQLEnumType({
      name: `${typeName}AggregateGroupField`,
      description: `The fields ${typeName} rows may be grouped by; a to-one path's dot is an underscore.`,
      values: Object.fromEntries(
        [...groups].map(([name, path]) => [name, { value: path, description: `${typeName}.${path}` }]),
      ),
    }),
    typeName,
  );
}

/** `<Entity>AggregateList`: a page of groups, and how many groups the whole match set forms. */
function listType(
  args: EntityFieldsArgs,
  aggregate: AggregateDescription,
  groups: ReadonlyMap<string, string>,
): GraphQLObjectType {
  const { typeName } = args.plan;
  const int = new GraphQLNonNull(GraphQLInt);
  return args.types.add(
    new GraphQLObjectType({
      name: `${typeName}AggregateList`,
      description: `A page of groups of ${typeName} rows.`,
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(itemType(args, aggregate, groups)))) },
        total: { type: GraphQLInt, description: 'How many groups the whole match set forms, across every page.' },
        limit: { type: int, description: 'The page size in force.' },
        offset: { type: int, description: 'How many groups the page skips.' },
      },
    }),
    typeName,
  );
}

/** `<Entity>Aggregate`: one group, its count, and an object per function that some field takes. */
function itemType(
  args: EntityFieldsArgs,
  aggregate: AggregateDescription,
  groups: ReadonlyMap<string, string>,
): GraphQLObjectType {
  const { typeName } = args.plan;
  const fields: ObjectFields = {};
  if (groups.size > 0) {
    fields['group'] = {
      type: new GraphQLNonNull(groupType(args, aggregate, groups)),
      description: 'The values the rows of this group share; null for a field the call does not group by.',
    };
  }
  fields['count'] = { type: new GraphQLNonNull(GraphQLInt), description: 'The rows in the group.' };
  for (const fn of MEASURE_FUNCTIONS) {
    const takers = aggregate.fields.filter((field) => field.functions.includes(fn));
    if (takers.length === 0) continue;
    fields[fn] = {
      type: functionType(args, fn, takers),
      description: `${FUNCTION_HELP[fn]} Only the fields selected here are computed.`,
    };
  }
  return args.types.add(
    new GraphQLObjectType({ name: `${typeName}Aggregate`, description: `A group of ${typeName} rows.`, fields }),
    typeName,
  );
}

/** `<Entity>AggregateGroup`: each group field by its GraphQL name, read from the answer by its path. */
function groupType(
  args: EntityFieldsArgs,
  aggregate: AggregateDescription,
  groups: ReadonlyMap<string, string>,
): GraphQLObjectType {
  const { typeName } = args.plan;
  const kinds = new Map(aggregate.groupBy.map((group) => [group.field, group.kind]));
  const fields: ObjectFields = {};
  for (const [name, path] of groups) {
    fields[name] = { type: columnType(args, path, kinds.get(path)!), resolve: (group) => group[path] };
  }
  return args.types.add(
    new GraphQLObjectType({
      name: `${typeName}AggregateGroup`,
      description: `The values a group of ${typeName} rows shares.`,
      fields,
    }),
    typeName,
  );
}

/** `<Entity>Aggregate<Function>`: the value of one function for each field that takes it. */
function functionType(
  args: EntityFieldsArgs,
  fn: MeasureFunction,
  takers: readonly AggregateField[],
): GraphQLObjectType {
  const { typeName } = args.plan;
  const fields: ObjectFields = {};
  for (const { field, kind } of takers) {
    // A column of an embedded class is `price_amount` here, read from the answer by its path.
    const name = graphqlFieldName(field);
    const read = name === field ? {} : { resolve: (values: Values) => values[field] };
    if (fn === 'countDistinct') fields[name] = { type: GraphQLInt, ...read };
    else if (fn === 'avg') fields[name] = { type: GraphQLFloat, ...read };
    else if (fn !== 'sum') fields[name] = { type: columnType(args, field, kind), ...read };
    else {
      const exact = kind === 'decimal' || kind === 'bigint';
      fields[name] = {
        type: exact ? GraphQLString : GraphQLFloat,
        description: SUM_HELP[kind],
        ...read,
        ...(kind === 'integer' ? { resolve: wholeSum(field) } : {}),
      };
    }
  }
  return args.types.add(
    new GraphQLObjectType({
      name: `${typeName}Aggregate${pascal(fn)}`,
      description: `The ${fn} of each ${typeName} field that takes it.`,
      fields,
    }),
    typeName,
  );
}

/** A column's own type, as `<Entity>` has it; a path's column by its kind alone. */
function columnType(args: EntityFieldsArgs, field: string, kind: AggregateField['kind']): GraphQLOutputType {
  const own = args.plan.description.fields.find((candidate) => candidate.name === field);
  return args.types.leaf({
    entity: args.plan.typeName,
    field,
    kind,
    enumValues: own?.enumValues,
    key: own?.primary,
  });
}

/** An integer sum is a number up to 2^53 and its text past it, which a Float would round: that is a field error. */
function wholeSum(field: string) {
  return (sum: Values): unknown => {
    const value = sum[field];
    if (typeof value !== 'string') return value;
    throw new GraphQLError(
      `The sum of ${field} is ${value}, past 2^53, which a GraphQL Float cannot hold exactly. REST and MCP answer it as text.`,
    );
  };
}

/**
 * The arguments and the selected functions as `GET /aggregate`'s query-string pairs, so the engine reads them as it
 * reads REST's, under the same allowlists and limits, naming the parameter at fault. A null argument is one not given.
 */
function aggregatePairs(
  args: EntityFieldsArgs,
  values: Values,
  names: { groups: ReadonlyMap<string, string>; aggregate: AggregateDescription },
  functions: Partial<Record<MeasureFunction, string[]>>,
): [string, string][] {
  const groupBy = values['groupBy'] as string[] | null | undefined;
  const sort = values['sort'] as string[] | null | undefined;
  const pairs: [string, string][] = [];
  if (groupBy != null && groupBy.length > 0) pairs.push(['groupBy', groupBy.join(',')]);
  for (const [fn, fields] of Object.entries(functions)) pairs.push([fn, fields.join(',')]);
  if (sort != null && sort.length > 0)
    pairs.push(['sort', sort.map((key) => sortKey(key, names.groups, names.aggregate)).join(',')]);
  for (const name of ['limit', 'offset']) {
    const value = values[name] as number | null | undefined;
    if (value != null) pairs.push([name, String(value)]);
  }
  return [...matchPairs(values, args.filter), ...pairs];
}

/**
 * `-author_country` to `-author.country`, `sum.price_amount` to `sum.price.amount`; every other key as it is, for the
 * engine to check.
 */
function sortKey(key: string, groups: ReadonlyMap<string, string>, aggregate: AggregateDescription): string {
  const sign = key.startsWith('-') || key.startsWith('+') ? key.charAt(0) : '';
  const name = key.slice(sign.length);
  const path = groups.get(name);
  if (path !== undefined) return `${sign}${path}`;
  const dot = name.indexOf('.');
  const measured = aggregate.fields.find(({ field }) => graphqlFieldName(field) === name.slice(dot + 1));
  return dot > 0 && measured ? `${sign}${name.slice(0, dot)}.${measured.field}` : key;
}

/** `sum: ['pages', 'price']` for `items { sum { pages price } }`: the fields selected under each function. */
function selectedFunctions(
  info: GraphQLResolveInfo,
  aggregate: AggregateDescription,
): Partial<Record<MeasureFunction, string[]>> {
  const { fragments, variableValues: variables } = info;
  const sets = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  const items = collectFields(collectFields(sets, fragments, variables).get('items') ?? [], fragments, variables);
  const out: Partial<Record<MeasureFunction, string[]>> = {};
  for (const fn of MEASURE_FUNCTIONS) {
    const takers = new Map(fieldsTaking(aggregate, fn).map((field) => [graphqlFieldName(field), field]));
    const selected = collectFields(items.get(fn) ?? [], fragments, variables);
    // `__typename` and the like are no fields of the entity.
    const fields = [...selected.keys()].flatMap((name) => takers.get(name) ?? []);
    if (fields.length > 0) out[fn] = fields;
  }
  return out;
}
