/** `set`: server-forced write values that overwrite the client's, per request (createOne, createMany, updateOne). */
import type { SetArgs, SetFunction } from '../config/entity-config';

export type { SetArgs, SetConfig, SetFunction } from '../config/entity-config';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { Row } from '../persistence/repository-adapter';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { checkColumnValue } from './check-column-value';

export interface ForcedValues {
  readonly create?: SetFunction;
  readonly update?: SetFunction;
}

export function buildForcedValues(entity: string, set: unknown): ForcedValues {
  if (set === undefined) return {};
  if (typeof set === 'function') return { create: set as SetFunction, update: set as SetFunction };
  if (!isPlainObject(set))
    throw new ConfigurationException({
      entity,
      path: 'set',
      message: 'must be a function, or { create?, update? } of functions.',
    });
  for (const [key, value] of Object.entries(set)) {
    if (key !== 'create' && key !== 'update') {
      const hint = key === 'patch' ? ' set never runs on patchOne; a patch changes only what the client sends.' : '';
      throw new ConfigurationException({
        entity,
        path: `set.${key}`,
        message: `is not a set slot; use create or update.${hint}`,
      });
    }
    if (typeof value !== 'function')
      throw new ConfigurationException({ entity, path: `set.${key}`, message: 'must be a function (args) => values.' });
  }
  return set as ForcedValues;
}

/** The values `set` forces for this write, checked against their columns (a bad value is a configuration error). */
export async function forcedValues(
  entity: string,
  metadata: EntityMetadata,
  slot: 'create' | 'update',
  fn: SetFunction | undefined,
  args: SetArgs,
): Promise<Row> {
  const forced = fn ? await fn(args) : undefined;
  if (forced === undefined) return {};
  const path = `set.${slot}`;
  if (!isPlainObject(forced))
    throw new ConfigurationException({ entity, path, message: 'must return an object of field values, or undefined.' });
  const out: Row = {};
  for (const [field, value] of Object.entries(forced)) {
    // An owning to-one relation takes a reference, `{ <key>: value }` (a child collection's link to its parent).
    const toOne = metadata.relations.find(
      (relation) => relation.property === field && (relation.kind === 'many-to-one' || relation.joinColumns.length > 0),
    );
    if (toOne && (value === null || isPlainObject(value))) {
      out[field] = value;
      continue;
    }
    const column = metadata.columns.find((candidate) => candidate.property === field);
    if (!column || column.primary || column.generated || column.virtual) {
      throw new ConfigurationException({
        entity,
        path,
        message: `returned '${field}', which is not a writable column of ${entity}.`,
      });
    }
    if (slot === 'create' && column.insertable === false) {
      throw new ConfigurationException({
        entity,
        path,
        message: `returned '${field}', which the ORM never writes on insert (insert: false), so the value would be lost.`,
      });
    }
    // A column set once (update: false) keeps what its create stored, as it does when a client sends it.
    if (slot === 'update' && column.updatable === false) continue;
    const checked = checkColumnValue(column, value);
    if (!checked.ok)
      throw new ConfigurationException({ entity, path, message: `returned '${field}', which ${checked.reason}.` });
    out[field] = checked.value;
  }
  return out;
}
