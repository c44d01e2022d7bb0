/**
 * `delete.field` naming a plain column: a nullable date or date-time column that is not TypeORM's delete-date column
 * serves as the soft-delete marker when the adapter can use one (`withDeleteMarker`). Checked once, at bootstrap.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import type { EntityConfig } from './entity-config';
import type { ResolvedSettings, SvcSettings } from './svc-settings';

const MARKER_KINDS = new Set(['date', 'datetime']);

/** The adapter to use: the given one, or one with `delete.field` as its marker. */
export function adapterWithDeleteMarker(args: {
  entity: string;
  adapter: RepositoryAdapter;
  settings: ResolvedSettings;
  global: SvcSettings;
  config: EntityConfig;
}): RepositoryAdapter {
  const { entity, adapter, settings } = args;
  if (settings.delete === false || settings.delete.strategy === 'hard') return adapter;
  const { field, strategy } = settings.delete;
  if (adapter.metadata.deleteMarker === field) return adapter;
  const column = adapter.metadata.columns.find((candidate) => candidate.property === field);
  // A missing column is reported with the strategy (soft fails, auto falls back to hard delete).
  if (!column) return adapter;
  const named = (args.config.delete || undefined)?.field ?? (args.global.delete || undefined)?.field;
  const insisted = strategy === 'soft' || named !== undefined;
  const refuse = (why: string): RepositoryAdapter => {
    if (!insisted) return adapter;
    throw new ConfigurationException({ entity, path: 'delete.field', message: `'${field}' ${why}` });
  };
  if (!MARKER_KINDS.has(column.kind))
    return refuse(
      `is a ${column.kind} column; a soft-delete marker is a nullable date or date-time column that is null on live rows.`,
    );
  if (!column.nullable)
    return refuse('is NOT NULL; a soft-delete marker must be nullable, since null marks a live row.');
  if (column.primary || column.generated)
    return refuse('is a key or generated column; a soft-delete marker is an ordinary nullable date column.');
  if (column.updatable === false || column.virtual || column.embedded)
    return refuse(
      'is a column the ORM does not update in place (update: false, virtual or embedded); a soft delete sets it on a stored row.',
    );
  if (!adapter.withDeleteMarker)
    return refuse(
      `is not the adapter's own delete-date column, and this adapter cannot use another one (withDeleteMarker). Declare it with the ORM's delete-date decorator.`,
    );
  return adapter.withDeleteMarker(field);
}
