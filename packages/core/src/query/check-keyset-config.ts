/** Boot checks of the keyset strategies: cursor's (check-cursor-config) and since's own column and allowlist rules. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { ListQueryConfig } from './list-query-config';
import { checkCursorConfig } from './check-cursor-config';

/** The keyset strategies' checks of a list config, at boot and for per-call settings that pick a strategy. */
export function checkKeysetConfig(entity: string, metadata: EntityMetadata, list: ListQueryConfig): void {
  if (list.pagination.strategy.name === 'cursor') checkCursorConfig(entity, metadata, list);
  if (list.pagination.strategy.name === 'since') checkSinceConfig(entity, metadata, list);
}

const SINCE_KINDS = new Set(['datetime', 'date', 'string']);

export function checkSinceConfig(entity: string, metadata: EntityMetadata, list: ListQueryConfig): void {
  const field = list.pagination.sinceField;
  const fail = (message: string) => {
    throw new ConfigurationException({ entity, path: 'pagination.since.field', message });
  };
  if (metadata.primaryKeys.length !== 1)
    fail(`${entity} has a composite primary key; since paging needs a single-column one. Use offset or page.`);
  const column = list.columns.get(field);
  if (!column) {
    fail(
      `'${field}' is not a column of ${entity}, so the since strategy has nothing to page by. ` +
        `Set pagination.since.field to a date-time column such as an @UpdateDateColumn.`,
    );
    return;
  }
  if (!SINCE_KINDS.has(column.kind))
    fail(`'${field}' is a ${column.kind} column; since pages by a date, date-time or string column.`);
  if (column.nullable)
    fail(`'${field}' is nullable; a row without a value would never be polled. Use a NOT NULL column.`);
  for (const key of [field, metadata.primaryKeys[0]!]) {
    const why = list.refuseCursorKey(key);
    if (why) fail(`'${key}' must be on sort.fields, filter.fields and select.fields for since paging: ${why}.`);
  }
}
