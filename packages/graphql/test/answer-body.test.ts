/**
 * An answer without errors is encoded by Svc's handler, not graphql-http: same status, headers and bytes as
 * graphql-http's own handler gives, for every `Accept` its media-type rules tell apart.
 */
import { createHandler } from 'graphql-http';
import { GraphQLFloat, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createSvcGraphqlHandler } from '../src/svc-graphql-handler';
import { acceptedMediaType, errorlessAnswer } from '../src/answer-body';

const Row = new GraphQLObjectType({
  name: 'Row',
  fields: { title: { type: GraphQLString }, rating: { type: GraphQLFloat } },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      rows: {
        type: new GraphQLList(Row),
        resolve: () => [
          { title: 'a "quoted" \u2028 title', rating: 4.5 },
          { title: null, rating: -0 },
        ],
      },
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('it broke');
        },
      },
    },
  }),
});

const ACCEPTS = [
  undefined,
  '',
  '*/*',
  'application/json',
  'application/json; charset=utf8',
  'application/json;charset=latin1',
  'application/*',
  'application/graphql-response+json',
  'application/graphql-response+json; charset=utf-8, application/json',
  'APPLICATION/GRAPHQL-RESPONSE+JSON;charset=utf-16, application/json',
  'text/html, application/json;q=0.9',
  'text/html',
];

describe('the answer of an operation without errors', () => {
  const reference = createHandler({ schema });
  const svc = createSvcGraphqlHandler({ schema });

  it.each(ACCEPTS)('is what graphql-http answers, with Accept %p', async (accept) => {
    for (const query of ['{ rows { title rating } }', '{ rows { title } broken }', '{ nope }']) {
      const request = {
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
        body: { query },
        raw: undefined,
        context: undefined,
      };
      expect(await svc(request)).toEqual(await reference(request));
    }
  });

  it('is written here only without errors', () => {
    const request = { method: 'POST', url: '/graphql', headers: {}, body: null, raw: undefined, context: undefined };
    expect(errorlessAnswer(request, { data: { a: [1, 'b'] } })?.[0]).toBe('{"data":{"a":[1,"b"]}}');
    expect(errorlessAnswer(request, { data: null, errors: [] })).toBeUndefined();
  });

  it('is not picked without an acceptable media type', () => {
    expect(acceptedMediaType('text/html')).toBeUndefined();
    expect(acceptedMediaType('application/json;charset=latin1')).toBeUndefined();
    expect(acceptedMediaType(null)).toBe('application/json');
  });
});
