/**
 * Both SQLite drivers' constraint failures classify alike: better-sqlite3 gives the extended code
 * (`SQLITE_CONSTRAINT_UNIQUE`), node-sqlite3 only the primary one (`SQLITE_CONSTRAINT`, errno 19) with the kind in its
 * message. Until 2026-12-02 a unique violation through node-sqlite3 answered 500 instead of 409. The shapes are those
 * both drivers throw (checked against node-sqlite3 5.1.7 and better-sqlite3 12).
 */
import { classifyDriverError } from '../../packages/typeorm/src/classify-driver-error';

const nodeSqlite3 = (message: string) =>
  Object.assign(new Error(`SQLITE_CONSTRAINT: ${message}`), { errno: 19, code: 'SQLITE_CONSTRAINT' });
const betterSqlite3 = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('SQLite driver errors', () => {
  it.each([
    ['UNIQUE constraint failed: books.isbn', 'SQLITE_CONSTRAINT_UNIQUE', 'unique', ['isbn']],
    [
      'UNIQUE constraint failed: books.title, books.edition',
      'SQLITE_CONSTRAINT_UNIQUE',
      'unique',
      ['title', 'edition'],
    ],
    ['NOT NULL constraint failed: books.title', 'SQLITE_CONSTRAINT_NOTNULL', 'notNull', ['title']],
    ['CHECK constraint failed: pages_positive', 'SQLITE_CONSTRAINT_CHECK', 'invalidValue', []],
    ['FOREIGN KEY constraint failed', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'foreignKey', []],
  ])('classifies %s the same from either driver', (message, code, kind, columns) => {
    const expected = { kind, columns };
    expect(classifyDriverError(betterSqlite3(code, message), 'sqlite')).toEqual(expected);
    expect(classifyDriverError(nodeSqlite3(message), 'sqlite')).toEqual(expected);
    // TypeORM wraps a driver's error in a QueryFailedError that keeps it as driverError.
    expect(classifyDriverError({ driverError: nodeSqlite3(message) }, 'sqlite')).toEqual(expected);
  });

  it('leaves another failure of node-sqlite3 unknown', () => {
    const error = Object.assign(new Error('SQLITE_ERROR: no such table: books'), { errno: 1, code: 'SQLITE_ERROR' });
    expect(classifyDriverError(error, 'sqlite').kind).toBe('unknown');
  });
});
