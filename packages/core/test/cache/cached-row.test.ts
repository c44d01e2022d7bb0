import { decodeCachedRow, encodeCachedRow } from '../../src/cache/cached-row';

/** What a store that keeps JSON text hands back. */
const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('encodeCachedRow', () => {
  describe('when every field is plain JSON', () => {
    it('keeps the values as they are, with no kinds, and nested JSON by reference', () => {
      const data = { tags: ['a'], depth: { n: 1 } };
      const encoded = encodeCachedRow({ id: 1, title: 'A', rating: null, published: false, data });
      expect(encoded).toStrictEqual({ values: { id: 1, title: 'A', rating: null, published: false, data } });
      expect(encoded.values['data']).toBe(data);
    });
  });

  describe('when fields hold values JSON cannot carry', () => {
    const row = {
      id: 1,
      createdAt: new Date('2024-05-06T07:08:09.123Z'),
      never: new Date(Number.NaN),
      big: 12345678901234567890n,
      ratio: Number.NaN,
      top: Number.POSITIVE_INFINITY,
      zero: -0,
      gone: undefined,
      bytes: Uint8Array.from([0, 1, 255]),
      file: Buffer.from('hi'),
      stamps: [new Date('2024-01-01T00:00:00.000Z'), null],
    };

    it('tags them by field, in a form that survives JSON unchanged', () => {
      const encoded = encodeCachedRow(row);
      expect(encoded.kinds).toStrictEqual({
        createdAt: 'date',
        never: 'date',
        big: 'bigint',
        ratio: 'number',
        top: 'number',
        zero: 'number',
        gone: 'undefined',
        bytes: 'bytes',
        file: 'buffer',
        stamps: 'nested',
      });
      expect(encoded.values['createdAt']).toBe('2024-05-06T07:08:09.123Z');
      expect(throughJson(encoded)).toStrictEqual(encoded);
    });

    it('revives every field as it was, through a JSON round trip', () => {
      const decoded = decodeCachedRow(throughJson(encodeCachedRow(row)));
      // Jest finds no two invalid Dates equal, so that field is checked on its own.
      const { never, ...revived } = decoded;
      const { never: _, ...original } = row;
      expect(revived).toStrictEqual(original);
      expect(never).toBeInstanceOf(Date);
      expect(Number.isNaN((never as Date).getTime())).toBe(true);
      expect(Object.keys(decoded)).toEqual(Object.keys(row));
      expect(decoded['createdAt']).toBeInstanceOf(Date);
      expect(Object.is(decoded['zero'], -0)).toBe(true);
      expect(Buffer.isBuffer(decoded['file'])).toBe(true);
      expect(Buffer.isBuffer(decoded['bytes'])).toBe(false);
      expect((decoded['stamps'] as unknown[])[0]).toBeInstanceOf(Date);
    });
  });

  describe('when a field holds an object of a class', () => {
    it('keeps its own fields as a plain object, as structuredClone would', () => {
      class Money {
        constructor(
          readonly amount: number,
          readonly at: Date,
        ) {}
      }
      const at = new Date('2024-01-01T00:00:00.000Z');
      const decoded = decodeCachedRow(throughJson(encodeCachedRow({ price: new Money(5, at) })));
      expect(decoded['price']).toEqual({ amount: 5, at });
      expect((decoded['price'] as { at: unknown }).at).toBeInstanceOf(Date);
    });
  });

  describe('when a field holds a function', () => {
    it('refuses the row, which no store could hold', () => {
      expect(() => encodeCachedRow({ run: () => 1 })).toThrow(TypeError);
    });
  });
});
