import { canonicalJson, computeEtag } from '../../src/cache/etag';
import { etagMatchesStrong, etagMatchesWeak } from '../../src/cache/etag';

describe('canonicalJson', () => {
  describe('when objects hold the same keys in another order', () => {
    it('writes them identically, at every level', () => {
      const a = { b: 1, a: { y: [1, { q: 1, p: 2 }], x: null } };
      const b = { a: { x: null, y: [1, { p: 2, q: 1 }] }, b: 1 };
      expect(canonicalJson(a)).toBe(canonicalJson(b));
      expect(canonicalJson(a)).toBe('{"a":{"x":null,"y":[1,{"p":2,"q":1}]},"b":1}');
    });
  });

  describe('when values are special', () => {
    it('writes dates as ISO strings and leaves undefined properties out', () => {
      expect(canonicalJson({ at: new Date('2024-01-01T00:00:00Z'), gone: undefined })).toBe(
        '{"at":"2024-01-01T00:00:00.000Z"}',
      );
    });

    it('keeps array order, which is meaningful', () => {
      expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    });

    it('writes scalars as JSON', () => {
      expect([canonicalJson('x'), canonicalJson(1), canonicalJson(null), canonicalJson(undefined)]).toEqual([
        '"x"',
        '1',
        'null',
        'null',
      ]);
    });
  });
});

describe('computeEtag', () => {
  describe('when two representations are equal up to key order', () => {
    it('gives the same strong ETag', () => {
      expect(computeEtag({ id: 1, title: 'A' })).toBe(computeEtag({ title: 'A', id: 1 }));
    });
  });

  describe('when the representations differ', () => {
    it('gives different ETags', () => {
      expect(computeEtag({ id: 1, title: 'A' })).not.toBe(computeEtag({ id: 1, title: 'B' }));
      expect(computeEtag({ id: 1, pages: 1 })).not.toBe(computeEtag({ id: 1, pages: '1' }));
    });
  });

  describe('when computed', () => {
    it('is a quoted strong tag, without a W/ prefix', () => {
      expect(computeEtag({ id: 1 })).toMatch(/^"[0-9a-z]{2,}"$/);
    });
  });
});

describe('etagMatchesWeak (If-None-Match)', () => {
  const etag = computeEtag({ id: 1 });

  describe('when the header holds the same tag', () => {
    it.each([etag, `W/${etag}`, `"other", ${etag}`, ` ${etag} `])('matches %p', (header) => {
      expect(etagMatchesWeak(header, etag)).toBe(true);
    });

    it('matches a weak current tag too', () => {
      expect(etagMatchesWeak(etag, `W/${etag}`)).toBe(true);
    });
  });

  describe('when the header is *', () => {
    it('matches', () => {
      expect(etagMatchesWeak('*', etag)).toBe(true);
    });
  });

  describe('when the header holds other tags', () => {
    it.each(['"other"', '', ',', 'W/"other"'])('does not match %p', (header) => {
      expect(etagMatchesWeak(header, etag)).toBe(false);
    });
  });
});

describe('etagMatchesStrong (If-Match)', () => {
  const etag = computeEtag({ id: 1 });

  describe('when the header holds the same strong tag', () => {
    it.each([etag, `"other", ${etag}`])('matches %p', (header) => {
      expect(etagMatchesStrong(header, etag)).toBe(true);
    });
  });

  describe('when the header is *', () => {
    it('matches any current representation', () => {
      expect(etagMatchesStrong('*', etag)).toBe(true);
    });
  });

  describe('when the header holds the weak form of the tag', () => {
    it('does not match, since strong comparison refuses weak tags', () => {
      expect(etagMatchesStrong(`W/${etag}`, etag)).toBe(false);
    });
  });

  describe('when the header holds another tag', () => {
    it('does not match', () => {
      expect(etagMatchesStrong('"other"', etag)).toBe(false);
    });
  });
});
