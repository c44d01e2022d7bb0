/**
 * The named types of one schema: made once each, shared by every place that uses them, and checked for clashing
 * names (two entities, or an entity and a derived type, that would take the same GraphQL name).
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  type GraphQLNamedType,
  type GraphQLScalarType,
} from 'graphql';
import { ConfigurationException } from '@svc/core';
import { type ColumnKind } from '@svc/core/spi';
import { isGraphqlName, pascal } from './graphql-names';
import { DateTimeScalar, JsonScalar } from './svc-scalars';

/** What a leaf field needs to be typed: its column kind, its enum values, and whether it is a key. */
export interface LeafSpec {
  readonly entity: string;
  readonly field: string;
  readonly kind: ColumnKind;
  readonly enumValues?: readonly (string | number)[];
  /** A primary key: typed `ID` whatever its kind. */
  readonly key?: boolean;
}

/** GraphQL's scalar for each column kind (keys and enums are typed apart). */
const SCALAR_OF: Readonly<Record<ColumnKind, GraphQLScalarType>> = {
  string: GraphQLString,
  uuid: GraphQLString,
  integer: GraphQLInt,
  number: GraphQLFloat,
  // 64-bit integers and decimals exceed what GraphQL's Int and Float hold exactly; drivers read them as text.
  bigint: GraphQLString,
  decimal: GraphQLString,
  boolean: GraphQLBoolean,
  date: GraphQLString,
  datetime: DateTimeScalar,
  json: JsonScalar,
  enum: GraphQLString,
};

export class SchemaTypes {
  private readonly named = new Map<string, { readonly type: GraphQLNamedType; readonly owner: string }>();

  /** Registers a type under its name; a second, different type of the same name is a configuration error. */
  add<T extends GraphQLNamedType>(type: T, owner: string): T {
    const existing = this.named.get(type.name);
    if (existing && existing.type !== type) {
      throw new ConfigurationException({
        entity: owner,
        path: 'graphql',
        message: `needs the GraphQL type name '${type.name}', which ${existing.owner} already takes. Leave one of them out of GraphQL (exclude) or rename the entity.`,
      });
    }
    this.named.set(type.name, { type, owner });
    return type;
  }

  /** The type registered under `name`, if any. */
  get(name: string): GraphQLNamedType | undefined {
    return this.named.get(name)?.type;
  }

  /** The type of a leaf field: `ID` for keys, a GraphQL enum where the column lists values, else by kind. */
  leaf(spec: LeafSpec): GraphQLScalarType | GraphQLEnumType {
    if (spec.key) return GraphQLID;
    const values = spec.enumValues;
    if (values && values.length > 0) return this.enumType(spec, values) ?? enumFallback(values);
    return SCALAR_OF[spec.kind];
  }

  private enumType(spec: LeafSpec, values: readonly (string | number)[]): GraphQLEnumType | undefined {
    // GraphQL enum values are names; a column whose values are not (numbers, `true`, spaces) keeps a scalar.
    const names = values.map(String);
    if (!names.every((name) => isGraphqlName(name) && !['true', 'false', 'null'].includes(name))) return undefined;
    const name = `${spec.entity}${pascal(spec.field)}`;
    const existing = this.get(name);
    if (existing instanceof GraphQLEnumType) return existing;
    return this.add(
      new GraphQLEnumType({
        name,
        description: `The values of ${spec.entity}.${spec.field}.`,
        values: Object.fromEntries(values.map((value) => [String(value), { value }])),
      }),
      spec.entity,
    );
  }
}

function enumFallback(values: readonly (string | number)[]): GraphQLScalarType {
  return values.every((value) => typeof value === 'number' && Number.isInteger(value)) ? GraphQLInt : GraphQLString;
}
