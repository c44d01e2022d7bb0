/** plannedExecute against graphql-js's execute on a schema of its own: the same answers, each resolver run once. */
import {
  execute,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type GraphQLFieldConfig,
  type GraphQLOutputType,
} from 'graphql';
import { plannedExecute } from '../src/planned-execution';

const calls: string[] = [];

/** A field whose resolver fails `ms` milliseconds after it is called. */
function failingAfter(name: string, type: GraphQLOutputType): GraphQLFieldConfig<unknown, unknown, { ms: number }> {
  return {
    type,
    args: { ms: { type: GraphQLInt } },
    resolve: async (_source, { ms }) => {
      calls.push(name);
      await new Promise((resolve) => setTimeout(resolve, ms));
      throw new Error(`${name} ${ms}`);
    },
  };
}
const Nothing = new GraphQLScalarType({ name: 'Nothing', serialize: () => null });
const Row = new GraphQLObjectType({
  name: 'Row',
  fields: { title: { type: GraphQLString }, nothing: { type: Nothing } },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      row: {
        type: Row,
        resolve: async () => (calls.push('row'), { title: 'a', nothing: 1 }),
      },
      failing: {
        type: GraphQLString,
        resolve: async () => {
          calls.push('failing');
          throw new Error('refused');
        },
      },
      late: failingAfter('late', GraphQLString),
      lateRequired: failingAfter('lateRequired', new GraphQLNonNull(GraphQLString)),
      required: {
        type: new GraphQLNonNull(GraphQLString),
        resolve: async () => {
          calls.push('required');
          throw new Error('required refused');
        },
      },
    },
  }),
});

async function both(query: string): Promise<[unknown, unknown, string[]]> {
  const document = parse(query);
  calls.length = 0;
  const planned = JSON.parse(JSON.stringify(await plannedExecute({ schema, document }))) as unknown;
  const ran = [...calls];
  const reference = JSON.parse(JSON.stringify(await execute({ schema, document }))) as unknown;
  return [planned, reference, ran];
}

describe('plannedExecute', () => {
  it('answers from its plan what graphql-js answers', async () => {
    const [planned, reference, ran] = await both('{ row { title } }');
    expect(planned).toEqual(reference);
    expect(planned).toEqual({ data: { row: { title: 'a' } } });
    expect(ran).toEqual(['row']);
  });

  it('reports a scalar that serializes to null as graphql-js does, an error of its field', async () => {
    const [planned, reference] = await both('{ row { title nothing } }');
    expect(planned).toEqual(reference);
    expect(planned).toMatchObject({
      data: { row: { title: 'a', nothing: null } },
      errors: [{ path: ['row', 'nothing'] }],
    });
  });

  it('completes a run with a failed field from what the others settled on, running each resolver once', async () => {
    const [planned, reference, ran] = await both('{ row { title } failing again: row { title } }');
    expect(planned).toEqual(reference);
    expect(planned).toMatchObject({ data: { row: { title: 'a' }, failing: null }, errors: [{ path: ['failing'] }] });
    expect(ran.sort()).toEqual(['failing', 'row', 'row']);
  });

  it('nulls the answer for a failed non-null field as graphql-js does, still once', async () => {
    const [planned, reference, ran] = await both('{ row { title } required }');
    expect(planned).toEqual(reference);
    expect(planned).toMatchObject({ data: null, errors: [{ path: ['required'] }] });
    expect(ran.sort()).toEqual(['required', 'row']);
  });

  it('reports failures in the order they happened, the non-null one that nulls the answer first', async () => {
    for (const query of [
      '{ r: lateRequired(ms: 5) a: late(ms: 30) }',
      '{ a: late(ms: 5) r: lateRequired(ms: 30) }',
      '{ a: late(ms: 30) b: late(ms: 5) row { title } }',
    ]) {
      const [planned, reference] = await both(query);
      expect(planned).toEqual(reference);
    }
  });

  it('leaves the schema as it found it', async () => {
    const resolvers = Object.values(schema.getQueryType()!.getFields()).map((field) => field.resolve);
    await both('{ row { title } failing }');
    expect(Object.values(schema.getQueryType()!.getFields()).map((field) => field.resolve)).toEqual(resolvers);
  });
});
