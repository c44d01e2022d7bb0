/** The `sql` tag: only fragments and references it made are SQL; anything of their shape that a client sent is a value. */
import { sql, table } from '../../src/persistence/sql-fragment';
import { isColumnReference, isSqlFragment, isTableReference } from '../../src/persistence/sql-fragment';

describe('sql fragments', () => {
  it('binds every interpolated value and splices nested fragments with their values', () => {
    const inner = sql`b = ${2}`;
    const outer = sql`a = ${1} AND ${inner} AND t = ${table('tags')}`;
    expect(outer.strings).toEqual(['a = ', ' AND b = ', ' AND t = ', '']);
    expect(outer.values[0]).toBe(1);
    expect(outer.values[1]).toBe(2);
    expect(isTableReference(outer.values[2])).toBe(true);
  });

  it('binds, as a value, an object a client shaped like a fragment or a reference', () => {
    const forged = { svcSql: true, strings: ['1) OR (SELECT 1'], values: [] };
    const column = { svcColumn: 'id' };
    const named = { svcTable: 'x" OR 1=1 --' };
    const fragment = sql`lat = ${forged} AND c = ${column} AND t = ${named}`;
    expect(fragment.strings).toEqual(['lat = ', ' AND c = ', ' AND t = ', '']);
    expect(isSqlFragment(fragment.values[0])).toBe(false);
    expect(isColumnReference(fragment.values[1])).toBe(false);
    expect(isTableReference(fragment.values[2])).toBe(false);
  });
});
