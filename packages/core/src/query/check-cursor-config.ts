/**
 * Boot checks of the cursor strategy: one primary key, and no bigint or decimal value that every page would have to
 * carry (the primary key, or a key of `sort.default`). A request that sorts by such a column is refused then (400).
 */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { ListQueryConfig } from './list-query-config';
import { relationOfPath } from '../config/resolve-field-path';

/** Kinds whose values travel as text of arbitrary precision, which a cursor cannot carry and compare back exactly. */
export const UNCURSORABLE_KINDS: ReadonlySet<string> = new Set(['bigint', 'decimal']);

export function checkCursorConfig(entity: string, metadata: EntityMetadata, list: ListQueryConfig): void {
  const fail = (message: string, path = 'pagination.strategy (cursor)') => {
    throw new ConfigurationException({ entity, path, message });
  };
  if (metadata.primaryKeys.length !== 1)
    fail(`${entity} has a composite primary key; cursor paging needs a single-column one. Use offset or page.`);
  const key = list.columns.get(metadata.primaryKeys[0]!);
  if (key && UNCURSORABLE_KINDS.has(key.kind))
    fail(
      `'${key.property}' (the primary key) is a ${key.kind} column, which a cursor cannot carry exactly. Use offset or page.`,
    );
  for (const sortKey of list.sortDefault) {
    if (relationOfPath(sortKey.field, list.columns))
      fail(
        `'${sortKey.field}' is a relation path, which a cursor cannot carry, so every default page would be refused. Sort by default on own columns, or use offset or page.`,
        'sort.default',
      );
    const column = list.columns.get(sortKey.field);
    if (column && UNCURSORABLE_KINDS.has(column.kind))
      fail(
        `'${column.property}' is a ${column.kind} column, which a cursor cannot carry exactly, so every default page would be refused. Sort by default on another column, or use offset or page.`,
        'sort.default',
      );
  }
}
