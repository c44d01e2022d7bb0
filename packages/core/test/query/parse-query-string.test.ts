import { parseQueryString } from '@svc/core/spi';
import { splitBracketKey } from '../../src/query/parse-query-string';

describe('parseQueryString', () => {
  describe('when the string is empty', () => {
    it.each(['', '?'])('returns no pairs for %p', (text) => {
      expect(parseQueryString(text)).toEqual([]);
    });
  });

  describe('when it holds plain pairs', () => {
    it('keeps them in order, repeated keys included, and drops a leading ?', () => {
      expect(parseQueryString('?b=2&a=1&b=3')).toEqual([
        ['b', '2'],
        ['a', '1'],
        ['b', '3'],
      ]);
    });

    it('reads a key without = as an empty value and skips empty parts', () => {
      expect(parseQueryString('a&&b=')).toEqual([
        ['a', ''],
        ['b', ''],
      ]);
    });

    it('keeps = signs after the first inside the value', () => {
      expect(parseQueryString('filter={"a":"x=y"}')).toEqual([['filter', '{"a":"x=y"}']]);
    });
  });

  describe('when it holds escapes', () => {
    it('decodes percent-escapes in keys and values, and + as a space', () => {
      expect(parseQueryString('filter%5Btitle%5D%5Beq%5D=a+b%26c')).toEqual([['filter[title][eq]', 'a b&c']]);
    });

    it('keeps a malformed percent-escape literally', () => {
      expect(parseQueryString('q=100%')).toEqual([['q', '100%']]);
    });
  });

  describe('when keys name prototype properties', () => {
    it('returns them as plain pairs and pollutes nothing', () => {
      const pairs = parseQueryString('__proto__[polluted]=1&constructor[prototype][polluted]=1');
      expect(pairs).toEqual([
        ['__proto__[polluted]', '1'],
        ['constructor[prototype][polluted]', '1'],
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});

describe('splitBracketKey', () => {
  describe('when the key has no brackets', () => {
    it('returns the key alone', () => {
      expect(splitBracketKey('limit')).toEqual(['limit']);
    });
  });

  describe('when the key has well-formed brackets', () => {
    it('splits every segment', () => {
      expect(splitBracketKey('filter[or][0][title][eq]')).toEqual(['filter', 'or', '0', 'title', 'eq']);
    });

    it('keeps an empty trailing bracket as an empty segment', () => {
      expect(splitBracketKey('filter[pages][in][]')).toEqual(['filter', 'pages', 'in', '']);
    });
  });

  describe('when the brackets are malformed', () => {
    it.each(['filter[title', 'filter[title]x', 'filter[a[b]]', 'filter]a['])('returns undefined for %s', (key) => {
      expect(splitBracketKey(key)).toBeUndefined();
    });
  });
});
