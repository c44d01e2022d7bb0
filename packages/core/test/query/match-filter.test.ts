/**
 * matchFilter decides a filter against one stored row as SQL would, where SQL's answer cannot depend on the database,
 * and answers undefined (ask the database) where it could.
 */
import type { ColumnKind } from '../../src/persistence/entity-metadata';
import type { FilterNode, FilterOperator } from '../../src/persistence/query-ast';
import { likeMatches, matchFilter } from '../../src/query/match-filter';

const KINDS: Record<string, ColumnKind> = {
  title: 'string',
  pages: 'integer',
  price: 'decimal',
  at: 'datetime',
  day: 'date',
  data: 'json',
  rating: 'number',
  tenant: 'bigint',
  'address.city': 'string',
};
const kindOf = (field: string) => KINDS[field];
const is = (field: string, operator: FilterOperator, value: unknown): FilterNode => ({
  kind: 'condition',
  field,
  operator,
  value,
});

describe('matchFilter', () => {
  const row = {
    title: 'Dune',
    pages: 412,
    price: '12.50',
    at: new Date('2026-01-02T03:04:05.000Z'),
    day: '2026-01-02',
    data: { a: 1 },
    rating: null,
  };

  describe('when the answer cannot depend on the database', () => {
    it('compares numeric kinds as numbers, decimals served as strings included', () => {
      expect(matchFilter(is('pages', 'gt', 400), row, kindOf)).toBe(true);
      expect(matchFilter(is('price', 'eq', '12.5'), row, kindOf)).toBe(true);
      expect(matchFilter(is('price', 'lt', 9), row, kindOf)).toBe(false);
      expect(matchFilter(is('pages', 'between', [400, 420]), row, kindOf)).toBe(true);
      expect(matchFilter(is('pages', 'in', [1, 412]), row, kindOf)).toBe(true);
      expect(matchFilter(is('pages', 'notIn', [1, 412]), row, kindOf)).toBe(false);
    });

    it('compares bigints and decimals exactly, past the digits a JavaScript number holds', () => {
      const big = { tenant: '9007199254740993', price: '12345678901234567.25' };
      expect(matchFilter(is('tenant', 'eq', '9007199254740992'), big, kindOf)).toBe(false);
      expect(matchFilter(is('tenant', 'eq', '9007199254740993'), big, kindOf)).toBe(true);
      expect(matchFilter(is('tenant', 'eq', '1234567890123456800'), { tenant: '1234567890123456789' }, kindOf)).toBe(
        false,
      );
      expect(matchFilter(is('tenant', 'gt', '9007199254740992'), big, kindOf)).toBe(true);
      expect(matchFilter(is('tenant', 'in', ['1', 9007199254740993n]), big, kindOf)).toBe(true);
      expect(matchFilter(is('price', 'lt', '12345678901234567.3'), big, kindOf)).toBe(true);
      expect(matchFilter(is('price', 'eq', '12345678901234567.250'), big, kindOf)).toBe(true);
      expect(matchFilter(is('price', 'eq', '12345678901234567.2'), big, kindOf)).toBe(false);
      // Signs, zeros and fractions order as numbers do.
      const order = ['-10.5', '-2', '-0.45', '-0.4', '0', '0.05', '0.4', '0.45', '0.5', '2', '10'];
      for (const [i, low] of order.entries()) {
        for (const high of order.slice(i + 1)) {
          expect({ low, high, lt: matchFilter(is('price', 'lt', high), { price: low }, kindOf) }).toEqual({
            low,
            high,
            lt: true,
          });
        }
      }
      expect(matchFilter(is('price', 'eq', '0'), { price: '-0.000' }, kindOf)).toBe(true);
      // Text that is no plain decimal is not decided here.
      expect(matchFilter(is('price', 'eq', '1e3'), { price: '1000' }, kindOf)).toBeUndefined();
    });

    it('compares date-times as instants and dates as days', () => {
      expect(matchFilter(is('at', 'gte', new Date('2026-01-02T03:04:05.000Z')), row, kindOf)).toBe(true);
      expect(matchFilter(is('at', 'lt', '2026-01-01T00:00:00.000Z'), row, kindOf)).toBe(false);
      expect(matchFilter(is('day', 'eq', '2026-01-02'), row, kindOf)).toBe(true);
    });

    it('treats null as SQL does: only the null tests match it, and NOT over it is not decided here', () => {
      expect(matchFilter(is('rating', 'isNull', true), row, kindOf)).toBe(true);
      expect(matchFilter(is('rating', 'gt', 1), row, kindOf)).toBe(false);
      expect(matchFilter({ kind: 'not', child: is('rating', 'gt', 1) }, row, kindOf)).toBeUndefined();
      expect(matchFilter({ kind: 'not', child: is('pages', 'gt', 1000) }, row, kindOf)).toBe(true);
    });

    it('matches contains, startsWith, endsWith and ilike without regard to case', () => {
      expect(matchFilter(is('title', 'contains', 'UN'), row, kindOf)).toBe(true);
      expect(matchFilter(is('title', 'startsWith', 'du'), row, kindOf)).toBe(true);
      expect(matchFilter(is('title', 'endsWith', 'NE'), row, kindOf)).toBe(true);
      expect(matchFilter(is('title', 'ilike', 'd_n%'), row, kindOf)).toBe(true);
      expect(matchFilter(is('title', 'ilike', 'x%'), row, kindOf)).toBe(false);
    });

    it('decides a group when one member decides it, even beside an undecided one', () => {
      const undecided = is('title', 'like', 'D%');
      expect(matchFilter({ kind: 'and', children: [undecided, is('pages', 'lt', 1)] }, row, kindOf)).toBe(false);
      expect(matchFilter({ kind: 'or', children: [undecided, is('pages', 'gt', 1)] }, row, kindOf)).toBe(true);
      expect(matchFilter({ kind: 'and', children: [undecided, is('pages', 'gt', 1)] }, row, kindOf)).toBeUndefined();
    });
  });

  describe('when the field is a column of an embedded class', () => {
    it('decides it by its path, as an own column', () => {
      const located = { ...row, 'address.city': 'Lyon' };
      expect(matchFilter(is('address.city', 'eq', 'Lyon'), located, kindOf)).toBe(true);
      expect(matchFilter(is('address.city', 'in', ['Nice']), located, kindOf)).toBe(false);
    });
  });

  describe('when the database could answer otherwise', () => {
    it('leaves like, JSON columns, relation paths and columns the row lacks undecided', () => {
      expect(matchFilter(is('title', 'like', 'D%'), row, kindOf)).toBeUndefined();
      expect(matchFilter(is('data', 'eq', { a: 1 }), row, kindOf)).toBeUndefined();
      expect(matchFilter(is('author.country', 'eq', 'GB'), row, kindOf)).toBeUndefined();
      expect(matchFilter(is('pages', 'eq', 1), { title: 'Dune' }, kindOf)).toBeUndefined();
    });
  });

  describe('LIKE patterns in memory', () => {
    /** The meaning of a pattern, as a regular expression over code points: fine for short inputs. */
    const reference = (text: string, pattern: string) =>
      new RegExp(
        `^${Array.from(pattern)
          .map((char) => (char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
        'su',
      ).test(text);

    it('answers what the pattern means: % any run, _ one character, a backslash itself', () => {
      const alphabet = ['a', 'b', '%', '_', '\\', 'é', '😀'];
      let seed = 7;
      const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
      const word = (max: number) =>
        Array.from({ length: random(max) }, () => alphabet[random(alphabet.length)]).join('');
      for (let i = 0; i < 5000; i++) {
        const text = word(9).replace(/[%_]/g, 'a');
        const pattern = word(7);
        expect({ text, pattern, match: likeMatches(text, pattern) }).toEqual({
          text,
          pattern,
          match: reference(text, pattern),
        });
      }
      expect(likeMatches('a\\b', 'a\\_')).toBe(true);
      expect(likeMatches('😀x', '_x')).toBe(true);
      expect(likeMatches('', '%')).toBe(true);
      expect(likeMatches('', '_')).toBe(false);
    });

    it('takes at most text × pattern steps, where a regular expression would backtrack for minutes', () => {
      const started = performance.now();
      expect(likeMatches('the left hand of darkness, 50th edition', '%%%%%%%%%%%%#')).toBe(false);
      expect(likeMatches('a'.repeat(5000), '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b')).toBe(false);
      expect(
        matchFilter(is('title', 'ilike', '%'.repeat(100) + '#'), { title: 'The Left Hand of Darkness' }, kindOf),
      ).toBe(false);
      expect(performance.now() - started).toBeLessThan(500);
      // Past the step budget, the database decides.
      expect(likeMatches('a'.repeat(20_000), '%a'.repeat(100))).toBeUndefined();
    });
  });
});
