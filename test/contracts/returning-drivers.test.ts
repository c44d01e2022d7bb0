/**
 * Which TypeORM drivers hand back the rows of `INSERT/UPDATE ... RETURNING`, as the adapter relies on them: a driver
 * that answers a count or an id for such a statement must get the read-back path, or a create would find no row.
 */
import { DIALECT_BY_TYPE, returnsRowsOfWrites } from '../../packages/typeorm/src/database-dialect';

describe('drivers that return the rows they wrote', () => {
  it('are PostgreSQL and better-sqlite3; node-sqlite3, MariaDB and MySQL are read back', () => {
    const returning = Object.keys(DIALECT_BY_TYPE).filter((type) => returnsRowsOfWrites(type));
    expect(returning.sort()).toEqual(['better-sqlite3', 'postgres']);
    // node-sqlite3 runs every INSERT and UPDATE with run(), which answers lastID or changes, never rows.
    expect(returnsRowsOfWrites('sqlite')).toBe(false);
  });
});
