/**
 * A validation rule that bounds what one operation can make the server produce: the number of values its answer can
 * hold, estimated before anything runs. Every selected field counts once for each row of every list it sits in, with
 * fragments expanded, aliases and introspection included:
 *
 * - a page (`items` of a root list field) holds its literal `limit`, else the entity's default page size; a limit
 *   given as a variable counts as the entity's largest page (validation is kept per document, not per request);
 * - a to-many relation, or any other list the schema does not size, counts as `listSize` rows (default 10): how many
 *   rows a relation holds is the data's, not the query's, so this is an estimate of a typical one;
 * - an introspection list counts as what the schema answers there (see introspection-size.ts).
 *
 * `books(limit: 100) { items { 20 columns, author { 10 columns }, tags { 5 columns } } }` counts
 * 2 + 100 × (20 + 1 + 10 + 1 + 10 × 5) = 8,202.
 */
import {
  GraphQLList,
  GraphQLNonNull,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getIntrospectionQuery,
  getNamedType,
  isInterfaceType,
  parse,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { introspectionStep, scopeKey, type IntrospectionScope } from './introspection-size';
import { operationLimitError } from './operation-field-limit';

/** The default bound of `createSvcGraphqlHandler`. */
export const DEFAULT_MAX_COST = 100_000;
/** The rows a to-many relation, or a list the schema does not size, is estimated to hold. */
export const DEFAULT_LIST_SIZE = 10;

/** The field extension that sizes the page of a root list field: `extensions: { svcPage: { ... } }`. */
export const PAGE_EXTENSION = 'svcPage';

/** What a root list field's page holds: `limit` when the argument is given, else `defaultLimit`. */
export interface PageSize {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** The argument that sets the page size, when the field takes one. */
  readonly limitArgument?: string;
}

export interface MaxCostOptions {
  /** @default 100000 */
  readonly maxCost?: number;
  /** Rows a to-many relation, or another unsized list, is estimated to hold. @default 10 */
  readonly listSize?: number;
}

/** What a selection set is answered for: the page of the list envelope it selects from, the introspection values. */
interface Scope {
  readonly page?: number;
  readonly introspection?: IntrospectionScope;
}

const ROOT: Scope = {};

/**
 * Refuses (before anything runs) an operation whose answer could hold more than `maxCost` values. Left unset, the
 * bound is 100,000 or twice what the schema's own full introspection query costs, whichever is larger, so GraphiQL
 * and code generators introspect any schema.
 */
export function maxCostRule(options: MaxCostOptions = {}): ValidationRule {
  const listSize = options.listSize ?? DEFAULT_LIST_SIZE;
  return (context) => {
    const schema = context.getSchema();
    const max = options.maxCost ?? defaultMaxCost(schema, listSize);
    return {
      OperationDefinition(operation) {
        const cost = costOfOperation(schema, operation, (name) => context.getFragment(name), listSize, max);
        if (cost > max) {
          context.reportError(
            operationLimitError(
              operation,
              `The operation could answer more than ${max} values (each field counted once per row of every list it ` +
                `is in; a page holds its limit, a to-many relation ${listSize} rows); the limit is ${max} ` +
                '(maxCost). Ask for fewer fields or smaller pages, or split it into several requests.',
            ),
          );
        }
      },
    };
  };
}

/**
 * The cost `maxCostRule` gives each operation of `document` (the largest, when it holds several), for logs and
 * tests. Counting stops past `cap`.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { readonly listSize?: number; readonly cap?: number } = {},
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  let cost = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const each = costOfOperation(
      schema,
      definition,
      (name) => fragments.get(name),
      options.listSize ?? DEFAULT_LIST_SIZE,
      options.cap ?? Number.MAX_SAFE_INTEGER,
    );
    cost = Math.max(cost, each);
  }
  return cost;
}

const defaultBySchema = new WeakMap<GraphQLSchema, Map<number, number>>();

/** 100,000, or twice the cost of the schema's full introspection query (descriptions and all) when that is more. */
function defaultMaxCost(schema: GraphQLSchema, listSize: number): number {
  const known = defaultBySchema.get(schema) ?? new Map<number, number>();
  defaultBySchema.set(schema, known);
  let max = known.get(listSize);
  if (max === undefined) {
    const introspection = parse(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    max = Math.max(DEFAULT_MAX_COST, Math.ceil(2 * operationCost(schema, introspection, { listSize })));
    known.set(listSize, max);
  }
  return max;
}

/** The cost of one operation; counting stops once past `cap`. */
function costOfOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragmentOf: (name: string) => FragmentDefinitionNode | null | undefined,
  listSize: number,
  cap: number,
): number {
  /** A fragment's cost per row it is spread in, by fragment and the scope it is spread in. */
  const fragments = new Map<string, number>();

  const costOf = (set: SelectionSetNode, parent: GraphQLNamedType, scope: Scope, open: Set<string>): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += fieldCost(selection, parent, scope, open);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        cost += costOf(selection.selectionSet, on ?? parent, scope, open);
      } else {
        cost += fragmentCost(fragmentOf(selection.name.value), scope, open);
      }
      // Past the cap the exact figure no longer matters.
      if (cost > cap) return cost;
    }
    return cost;
  };

  const fieldCost = (node: FieldNode, parent: GraphQLNamedType, scope: Scope, open: Set<string>): number => {
    const definition = fieldOf(schema, parent, node.name.value);
    if (!definition || !node.selectionSet) return 1;
    const step = introspectionStep(schema, parent.name, definition.name, scope.introspection, node);
    const rows = isList(definition.type) ? (step?.rows ?? scope.page ?? listSize) : 1;
    const inner: Scope = { page: pageOf(definition, node), introspection: step?.scope };
    return 1 + rows * costOf(node.selectionSet, getNamedType(definition.type), inner, open);
  };

  const fragmentCost = (
    fragment: FragmentDefinitionNode | null | undefined,
    scope: Scope,
    open: Set<string>,
  ): number => {
    if (!fragment) return 0;
    const key = `${fragment.name.value}@${scope.page ?? ''}@${scopeKey(scope.introspection)}`;
    const known = fragments.get(key);
    if (known !== undefined) return known;
    // A cycle is graphql-js's own validation error (NoFragmentCycles); it costs nothing here.
    if (open.has(fragment.name.value)) return 0;
    const on = schema.getType(fragment.typeCondition.name.value);
    if (!on) return 0;
    open.add(fragment.name.value);
    const cost = costOf(fragment.selectionSet, on, scope, open);
    open.delete(fragment.name.value);
    fragments.set(key, cost);
    return cost;
  };

  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return root ? costOf(operation.selectionSet, root, ROOT, new Set()) : 0;
}

/** The page size a root list field's arguments ask for, when the field is sized by Svc. */
function pageOf(definition: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
  const size = definition.extensions?.[PAGE_EXTENSION] as PageSize | undefined;
  if (!size) return undefined;
  const argument = size.limitArgument
    ? node.arguments?.find((entry) => entry.name.value === size.limitArgument)
    : undefined;
  // A null limit is a limit not given, as GraphQL has it.
  const asked = argument && argument.value.kind !== Kind.NULL ? intOf(argument.value) : size.defaultLimit;
  return Math.max(0, Math.min(asked ?? size.maxLimit, size.maxLimit));
}

function isList(type: GraphQLOutputType): boolean {
  const inner = type instanceof GraphQLNonNull ? type.ofType : type;
  return inner instanceof GraphQLList;
}

function fieldOf(
  schema: GraphQLSchema,
  parent: GraphQLNamedType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === '__schema' && parent === schema.getQueryType()) return SchemaMetaFieldDef;
  if (name === '__type' && parent === schema.getQueryType()) return TypeMetaFieldDef;
  if (isObjectType(parent) || isInterfaceType(parent)) return parent.getFields()[name];
  return undefined;
}

/**
 * An integer argument given as a literal; undefined when a variable gives it. Validation runs once per document and
 * its result is kept, so it cannot read a request's variables: a variable counts as the largest value it may have.
 */
function intOf(value: ValueNode): number | undefined {
  return value.kind === Kind.INT ? Number(value.value) : undefined;
}
