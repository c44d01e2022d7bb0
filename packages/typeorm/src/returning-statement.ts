/** Writes that answer the rows they stored, in the statement itself. */
import type { EntityManager, InsertQueryBuilder, ObjectLiteral, UpdateQueryBuilder } from 'typeorm';
import type { EntityTable } from './entity-table';

/**
 * Runs an INSERT or UPDATE with `RETURNING *` and answers the raw rows: TypeORM writes the clause where it can
 * (PostgreSQL, MariaDB's INSERT); on SQLite, where TypeORM 0.3 does not, its statement runs with the clause added,
 * listing the table's `returningList` (bigints read exactly beside `*`).
 */
export async function executeReturning(
  table: EntityTable,
  manager: EntityManager,
  query: InsertQueryBuilder<ObjectLiteral> | UpdateQueryBuilder<ObjectLiteral>,
): Promise<Record<string, unknown>[]> {
  if (table.dialect !== 'sqlite') {
    query.returning('*');
    const result = await query.execute();
    return (result.raw as Record<string, unknown>[] | undefined) ?? [];
  }
  const [sql, parameters] = query.getQueryAndParameters();
  return (await manager.query(`${sql} RETURNING ${table.returningList}`, parameters)) as Record<string, unknown>[];
}
