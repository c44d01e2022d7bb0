/** DocumentCache: parsed documents kept by their text (bounded), and validation run once per document that passes. */
import { GraphQLObjectType, GraphQLSchema, GraphQLString, specifiedRules } from 'graphql';
import { DocumentCache } from '../src/document-cache';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { hello: { type: GraphQLString } } }),
});

describe('DocumentCache', () => {
  it('answers a text seen before with the same document', () => {
    const cache = new DocumentCache(2);
    expect(cache.parse('{ hello }')).toBe(cache.parse('{ hello }'));
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const cache = new DocumentCache(2);
    const first = cache.parse('{ a: hello }');
    cache.parse('{ b: hello }');
    cache.parse('{ a: hello }');
    cache.parse('{ c: hello }');
    expect(cache.parse('{ a: hello }')).toBe(first);
    const second = cache.parse('{ b: hello }');
    expect(cache.parse('{ b: hello }')).toBe(second);
  });

  it('validates a document that passed only once, and one with errors every time', () => {
    const cache = new DocumentCache(10);
    let runs = 0;
    const counting = [...specifiedRules, () => (runs++, {})];
    const good = cache.parse('{ hello }');
    expect(cache.validate(schema, good, counting)).toEqual([]);
    expect(cache.validate(schema, good, counting)).toEqual([]);
    expect(runs).toBe(1);
    const bad = cache.parse('{ nope }');
    expect(cache.validate(schema, bad, counting)).toHaveLength(1);
    expect(cache.validate(schema, bad, counting)).toHaveLength(1);
    expect(runs).toBe(3);
  });

  it('still throws on text that does not parse', () => {
    expect(() => new DocumentCache(2).parse('{ hello')).toThrow(/Syntax Error/);
  });
});
