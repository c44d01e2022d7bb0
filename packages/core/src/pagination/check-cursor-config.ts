/** Boot checks of the cursor strategy: one primary key, and no bigint or decimal key a cursor would have to carry. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { SortAllowlist } from '../query/resolve-sort';

const UNCURSORABLE = new Set(['bigint', 'decimal']);

export function checkCursorConfig(entity: string, metadata: EntityMetadata, sort: SortAllowlist): void {
  const fail = (message: string) => {
    throw new ConfigurationException({ entity, path: 'pagination.strategy (cursor)', message });
  };
  if (metadata.primaryKeys.length !== 1)
    fail(`${entity} has a composite primary key; cursor paging needs a single-column one. Use offset or page.`);
  for (const column of metadata.columns) {
    const keyed = column.primary || sort.fields.has(column.property);
    if (keyed && UNCURSORABLE.has(column.kind)) {
      fail(
        `'${column.property}' is a ${column.kind} column${column.primary ? ' (the primary key)' : ' on sort.fields'}, which a cursor cannot carry exactly. ${column.primary ? 'Use offset or page.' : 'Take it off sort.fields, or use offset or page.'}`,
      );
    }
  }
}
