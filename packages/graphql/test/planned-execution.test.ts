/** plannedExecute against graphql-js's execute on a schema of its own: the same answers, each resolver run once. */
import {
  execute,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
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
import { DateTimeScalar } from '../src/svc-scalars';

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

describe('plannedExecute, values and arguments', () => {
  /** Values a row may hold, each read as every built-in scalar and DateTime. */
  const VALUES: Record<string, unknown> = {
    text: 'a',
    empty: '',
    whole: 7,
    negative: -3,
    large: 2 ** 31,
    fraction: 1.5,
    notNumber: Number.NaN,
    infinite: Number.POSITIVE_INFINITY,
    yes: true,
    no: false,
    date: new Date('2026-01-31T09:30:00.000Z'),
    boxed: { valueOf: () => 4 },
  };
  const SCALARS = { GraphQLString, GraphQLInt, GraphQLFloat, GraphQLBoolean, GraphQLID, DateTimeScalar };
  const Holder = new GraphQLObjectType({
    name: 'Holder',
    fields: Object.fromEntries(
      Object.entries(SCALARS).flatMap(([scalarName, scalar]) =>
        Object.keys(VALUES).map((value) => [`${value}As${scalarName}`, { type: scalar }]),
      ),
    ),
  });
  const seen: Record<string, unknown>[] = [];
  const Where = new GraphQLInputObjectType({ name: 'Where', fields: { name: { type: GraphQLString } } });
  const valuesSchema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        holder: {
          type: Holder,
          resolve: () =>
            Object.fromEntries(
              Object.keys(SCALARS).flatMap((scalarName) =>
                Object.entries(VALUES).map(([value, held]) => [`${value}As${scalarName}`, held]),
              ),
            ),
        },
        echo: {
          type: GraphQLString,
          args: {
            text: { type: GraphQLString },
            times: { type: GraphQLInt },
            tags: { type: new GraphQLList(GraphQLString) },
            where: { type: Where },
          },
          resolve: (_source, args: Record<string, unknown>) => {
            // As the resolver got them: graphql-js's own object on a document's first run, a copy after it.
            seen.push({
              ...(JSON.parse(JSON.stringify(args)) as Record<string, unknown>),
              prototype: Object.getPrototypeOf(args) === null ? 'none' : 'Object',
            });
            // A resolver that changes its arguments, or what they hold, must not change the next run's.
            args['text'] = 'changed';
            (args['tags'] as string[] | undefined)?.push('changed');
            if (args['where']) (args['where'] as Record<string, unknown>)['name'] = 'changed';
            return `${String(args['times'])}`;
          },
        },
      },
    }),
  });

  it('answers every built-in scalar and DateTime as graphql-js does, one field at a time', async () => {
    for (const field of Object.keys(Holder.getFields())) {
      const document = parse(`{ holder { ${field} } }`);
      const planned = JSON.stringify(await plannedExecute({ schema: valuesSchema, document }));
      const reference = JSON.stringify(await execute({ schema: valuesSchema, document }));
      expect({ field, answer: planned }).toEqual({ field, answer: reference });
    }
  });

  it('gives every run the arguments it wrote, whether literal or from variables', async () => {
    seen.length = 0;
    const literal = parse('{ echo(text: "a", times: 2) }');
    const fromVariables = parse('query ($times: Int) { echo(text: "b", times: $times) }');
    const nested = parse('{ echo(text: "c", tags: ["x"], where: { name: "y" }) }');
    for (let run = 0; run < 3; run++) {
      await plannedExecute({ schema: valuesSchema, document: literal });
      await plannedExecute({ schema: valuesSchema, document: fromVariables, variableValues: { times: run } });
      await plannedExecute({ schema: valuesSchema, document: nested });
    }
    const prototype = seen[0]!['prototype'];
    const each = [
      { text: 'a', times: 2, prototype },
      { text: 'c', tags: ['x'], where: { name: 'y' }, prototype },
    ];
    expect(seen).toEqual([
      each[0],
      { text: 'b', times: 0, prototype },
      each[1],
      each[0],
      { text: 'b', times: 1, prototype },
      each[1],
      each[0],
      { text: 'b', times: 2, prototype },
      each[1],
    ]);
  });
});
