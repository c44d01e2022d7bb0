/** Each service of an entity keys its cached reads under a scope of its own; a named service's does not depend on order. */
import { MemoryCacheStore } from '../../src';
import { ResultCache } from '../../src/cache/result-cache';

describe('ResultCache.scopeOf', () => {
  it('gives unnamed services scopes in the order they are made: the first keeps the bare keys', () => {
    const cache = new ResultCache(new MemoryCacheStore());
    expect([cache.scopeOf('Book'), cache.scopeOf('Book'), cache.scopeOf('Book')]).toEqual(['', '#2:', '#3:']);
    expect(cache.scopeOf('Author')).toBe('');
  });

  it('gives a named service the same scope whatever was made before it', () => {
    const alone = new ResultCache(new MemoryCacheStore());
    const after = new ResultCache(new MemoryCacheStore());
    after.scopeOf('Book', 'PublicBooksController/public-books');
    after.scopeOf('Book');
    expect(after.scopeOf('Book', 'BooksController/books')).toBe(alone.scopeOf('Book', 'BooksController/books'));
  });

  it('keeps a reused name apart, and a name from breaking out of its part of the key', () => {
    const cache = new ResultCache(new MemoryCacheStore());
    expect(cache.scopeOf('Book', 'X')).toBe('@X:');
    expect(cache.scopeOf('Book', 'X')).toBe('@X#2:');
    expect(cache.scopeOf('Book', 'a|b:c#2')).toBe('@a%7Cb%3Ac%232:');
    expect(cache.scopeOf('Book')).toBe('');
  });
});
