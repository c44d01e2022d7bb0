/** The scalars the schema adds to GraphQL's own: `DateTime` (ISO 8601 text) and `JSON` (a JSON column's value). */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** A point in time as ISO 8601 text; a `Date` from the database is written with `toISOString()`. */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A point in time as ISO 8601 text, for example 2026-01-31T09:30:00.000Z.',
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string') return value;
    throw new GraphQLError(`DateTime cannot represent ${typeof value} values.`);
  },
  parseValue(value) {
    if (typeof value !== 'string') throw new GraphQLError('DateTime takes ISO 8601 text.');
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime takes ISO 8601 text.', { nodes: ast });
    return ast.value;
  },
});

/** Any JSON value: what a JSON column holds. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (a JSON column).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables ?? undefined),
});

function literalValue(ast: ValueNode, variables: Record<string, unknown> | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((item) => literalValue(item, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, literalValue(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}
