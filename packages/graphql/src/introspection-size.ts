/**
 * How many rows each introspection list answers, for the operation cost. An introspection answer depends on the schema
 * alone, so it can be sized from the schema, and sized where it is asked for:
 *
 * - for one item of a list of every type (`__schema { types { fields } }`), a list counts as its average over the
 *   schema, so the whole list adds up to the schema's exact total (every field of every type);
 * - for a type named by a literal (`__type(name: "Book") { fields }`), as that type's own list;
 * - for any other one type (`fields { type { fields } }`, a name given as a variable), as the longest such list.
 */
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

/** Which values a selection on `__Type`, `__Field` or `__Directive` is answered for. */
export type IntrospectionScope =
  { readonly kind: 'every' } | { readonly kind: 'one'; readonly type: GraphQLNamedType } | { readonly kind: 'any' };

const EVERY: IntrospectionScope = { kind: 'every' };
const ANY: IntrospectionScope = { kind: 'any' };

/** What one introspection field does to the cost: how many rows it answers (lists), and for which values. */
export interface IntrospectionStep {
  readonly rows: number;
  readonly scope: IntrospectionScope;
}

/** A type's lists that introspection answers, by `__Type` field name. */
const TYPE_LISTS = ['fields', 'interfaces', 'possibleTypes', 'enumValues', 'inputFields'] as const;
type TypeList = (typeof TYPE_LISTS)[number];

interface Totals {
  readonly total: number;
  readonly longest: number;
}

interface SchemaSizes {
  readonly types: number;
  readonly lists: Readonly<Record<TypeList, Totals>>;
  /** Arguments of every field of every object and interface type. */
  readonly args: Totals;
  readonly directives: number;
  readonly directiveArgs: Totals;
}

const bySchema = new WeakMap<GraphQLSchema, SchemaSizes>();

/** The key a cached cost of a fragment is kept under for this scope. */
export function scopeKey(scope: IntrospectionScope | undefined): string {
  if (!scope) return '';
  return scope.kind === 'one' ? `one:${scope.type.name}` : scope.kind;
}

/** The step of `node` (a field named `field` of the introspection type `parent`), or undefined for other fields. */
export function introspectionStep(
  schema: GraphQLSchema,
  parent: string,
  field: string,
  scope: IntrospectionScope | undefined,
  node: FieldNode,
): IntrospectionStep | undefined {
  if (field === '__schema') return { rows: 1, scope: EVERY };
  if (field === '__type') {
    const name = node.arguments?.find((argument) => argument.name.value === 'name')?.value;
    const type = name?.kind === Kind.STRING ? schema.getType(name.value) : undefined;
    return { rows: 1, scope: type ? { kind: 'one', type } : ANY };
  }
  if (!parent.startsWith('__')) return undefined;
  const sizes = sizesOf(schema);
  const within = scope ?? ANY;
  switch (`${parent}.${field}`) {
    case '__Schema.types':
      return { rows: sizes.types, scope: EVERY };
    case '__Schema.directives':
      return { rows: sizes.directives, scope: EVERY };
    case '__Schema.queryType':
    case '__Schema.mutationType':
    case '__Schema.subscriptionType': {
      const type =
        field === 'queryType'
          ? schema.getQueryType()
          : field === 'mutationType'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      return { rows: 1, scope: type ? { kind: 'one', type } : ANY };
    }
    case '__Type.fields':
      // The fields keep the scope of their type, which sizes their arguments.
      return { rows: listRows(schema, sizes, within, 'fields'), scope: within };
    case '__Type.interfaces':
    case '__Type.possibleTypes':
    case '__Type.enumValues':
    case '__Type.inputFields':
      return { rows: listRows(schema, sizes, within, field as TypeList), scope: ANY };
    case '__Field.args':
      return { rows: argumentRows(schema, sizes, within), scope: ANY };
    case '__Directive.args':
      return {
        rows: within.kind === 'every' ? average(sizes.directiveArgs, sizes.directives) : sizes.directiveArgs.longest,
        scope: ANY,
      };
    default:
      // `type`, `ofType` and the like: one type, which could be any.
      return { rows: 1, scope: ANY };
  }
}

function listRows(schema: GraphQLSchema, sizes: SchemaSizes, scope: IntrospectionScope, list: TypeList): number {
  if (scope.kind === 'every') return average(sizes.lists[list], sizes.types);
  if (scope.kind === 'one') return listOf(scope.type, list, schema).length;
  return sizes.lists[list].longest;
}

/** Arguments per field: the average over the fields of every type, or of the one type, else the most of any. */
function argumentRows(schema: GraphQLSchema, sizes: SchemaSizes, scope: IntrospectionScope): number {
  if (scope.kind === 'every') return average(sizes.args, sizes.lists.fields.total);
  if (scope.kind === 'one') {
    const fields = listOf(scope.type, 'fields', schema) as { args: readonly unknown[] }[];
    return fields.length === 0 ? 0 : fields.reduce((sum, entry) => sum + entry.args.length, 0) / fields.length;
  }
  return sizes.args.longest;
}

function average(totals: Totals, count: number): number {
  return count === 0 ? 0 : totals.total / count;
}

/** The entries of one of a type's introspection lists (empty where the type has no such list). */
function listOf(type: GraphQLNamedType, list: TypeList, schema: GraphQLSchema): readonly unknown[] {
  switch (list) {
    case 'fields':
      return isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [];
    case 'interfaces':
      return isObjectType(type) || isInterfaceType(type) ? type.getInterfaces() : [];
    case 'possibleTypes':
      return isInterfaceType(type) || isUnionType(type) ? schema.getPossibleTypes(type) : [];
    case 'enumValues':
      return isEnumType(type) ? type.getValues() : [];
    case 'inputFields':
      return isInputObjectType(type) ? Object.values(type.getFields()) : [];
  }
}

function sizesOf(schema: GraphQLSchema): SchemaSizes {
  const known = bySchema.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  const totals = (lengths: number[]): Totals => ({
    total: lengths.reduce((sum, length) => sum + length, 0),
    longest: Math.max(0, ...lengths),
  });
  const lists = Object.fromEntries(
    TYPE_LISTS.map((list) => [list, totals(types.map((type) => listOf(type, list, schema).length))]),
  ) as Record<TypeList, Totals>;
  const fields = types.flatMap((type) => listOf(type, 'fields', schema) as { args: readonly unknown[] }[]);
  const directives = schema.getDirectives();
  const sizes: SchemaSizes = {
    types: types.length,
    lists,
    args: totals(fields.map((entry) => entry.args.length)),
    directives: directives.length,
    directiveArgs: totals(directives.map((directive) => directive.args.length)),
  };
  bySchema.set(schema, sizes);
  return sizes;
}
