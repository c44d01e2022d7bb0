/** Whether a settings chain soft-deletes on an entity, and the refusal of a marker column no write could set. */
import { suggestion } from '../config/did-you-mean';
import type { ResolvedSettings } from '../config/svc-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { ResolvedOperation } from './resolved-entity';

export function resolveSoftDelete(entity: string, settings: ResolvedSettings, metadata: EntityMetadata): boolean {
  if (settings.delete === false) return false;
  const { field, strategy } = settings.delete;
  const hasMarker = metadata.deleteMarker === field;
  if (strategy === 'soft' && !hasMarker) {
    const columns = metadata.columns.map((column) => column.property);
    throw new ConfigurationException({
      entity,
      path: 'delete.strategy',
      message: `is 'soft' but ${entity} has no soft-delete marker column '${field}'.${suggestion(field, columns)} Add a delete-date column named '${field}', set delete.field, or use 'auto'.`,
    });
  }
  return strategy !== 'hard' && hasMarker;
}

/**
 * The ORM's own delete-date column declared `update: false` (a configured `delete.field` is checked where it is
 * taken): no soft delete or restore could set it on a stored row, so an entity that serves one is refused.
 */
export function refuseFixedDeleteMarker(
  entity: string,
  settings: ResolvedSettings,
  metadata: EntityMetadata,
  operations: ReadonlyMap<string, ResolvedOperation>,
): void {
  const field = settings.delete === false ? undefined : settings.delete.field;
  const marker = metadata.columns.find((column) => column.property === field);
  if (marker?.updatable !== false) return;
  // A soft delete is named before a restore.
  const served = [...operations.values()];
  const writer = (['sets', 'clears'] as const)
    .map((effect) => served.find((operation) => operation.facts?.deleteMarker === effect))
    .find((operation) => operation !== undefined)?.id;
  if (!writer) return;
  throw new ConfigurationException({
    entity,
    path: `delete (in force for ${writer})`,
    message: `soft-deletes through the delete-date column '${field}', which is declared update: false, so no soft delete or restore could set it on a stored row. Drop update: false from the column, or set delete.strategy to 'hard'.`,
  });
}
