/** `batch`: which batch writes an entity serves and their bounds, checked once at bootstrap. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnKind, EntityMetadata } from '../persistence/entity-metadata';
import { suggestion } from './did-you-mean';
import type { BatchConfig } from './entity-config';
import { isPlainObject } from './validate-settings';

/** The largest `maxItems` or `maxAffected` a config may set: one batch's statements stay bounded. */
export const MAX_BATCH_BOUND = 10_000;
const DEFAULT_BOUND = 100;
const KEYS = ['create', 'update', 'delete', 'maxItems', 'maxAffected'];

/** An upsert's rule, resolved: the unique columns an item is matched on, and what a match updates. */
export interface ResolvedUpsert {
  readonly target: readonly string[];
  /** The kind of each target column, in target order: how an item's value and a stored one compare. */
  readonly targetKinds: readonly ColumnKind[];
  /** The fields a matching item updates; `all`: every field it sends but the target. */
  readonly update: readonly string[] | 'all';
}

export interface ResolvedBatch {
  readonly maxItems: number;
  readonly maxAffected: number;
  /** `createMany` is an upsert: items matching an existing row on `target` update it (or, with none, keep it). */
  readonly upsert?: ResolvedUpsert;
}

/** The resolved `batch` block, or undefined when the entity serves no batch write. */
export function resolveBatchConfig(
  entity: string,
  metadata: EntityMetadata,
  batch: BatchConfig | undefined,
): ResolvedBatch | undefined {
  if (batch === undefined) return undefined;
  const fail = (path: string, message: string) => new ConfigurationException({ entity, path, message });
  if (!isPlainObject(batch))
    throw fail('batch', 'must be an object { create?, update?, delete?, maxItems?, maxAffected? }.');
  for (const key of Object.keys(batch)) {
    if (!KEYS.includes(key)) throw fail(`batch.${key}`, `is not a batch key.${suggestion(key, KEYS)}`);
  }
  for (const key of ['update', 'delete'] as const) {
    const value = batch[key];
    if (value !== undefined && typeof value !== 'boolean') throw fail(`batch.${key}`, 'must be true or false.');
  }
  const create = batch.create as unknown;
  if (create !== undefined && typeof create !== 'boolean' && !isPlainObject(create)) {
    throw fail('batch.create', 'must be true, false or { onConflict }.');
  }
  const upsert = isPlainObject(create) ? resolveUpsert(entity, metadata, create) : undefined;
  return {
    maxItems: bound(entity, 'maxItems', batch.maxItems),
    maxAffected: bound(entity, 'maxAffected', batch.maxAffected),
    ...(upsert ? { upsert } : {}),
  };
}

function bound(entity: string, key: 'maxItems' | 'maxAffected', value: unknown): number {
  if (value === undefined) return DEFAULT_BOUND;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_BATCH_BOUND) {
    throw new ConfigurationException({
      entity,
      path: `batch.${key}`,
      message: `must be an integer from 1 to ${MAX_BATCH_BOUND}, not ${JSON.stringify(value)}.`,
    });
  }
  return value;
}

function resolveUpsert(entity: string, metadata: EntityMetadata, create: Record<string, unknown>) {
  const fail = (path: string, message: string) => new ConfigurationException({ entity, path, message });
  for (const key of Object.keys(create)) {
    if (key !== 'onConflict')
      throw fail(`batch.create.${key}`, `is not a key of batch.create.${suggestion(key, ['onConflict'])}`);
  }
  const rule = create['onConflict'];
  if (rule === undefined) return undefined;
  if (!isPlainObject(rule))
    throw fail('batch.create.onConflict', "must be { target: [...columns], update: [...fields] | 'all' | 'none' }.");
  for (const key of Object.keys(rule)) {
    if (key !== 'target' && key !== 'update') {
      throw fail(
        `batch.create.onConflict.${key}`,
        `is not a key of onConflict.${suggestion(key, ['target', 'update'])}`,
      );
    }
  }
  const columns = new Map(metadata.columns.map((column) => [column.property, column]));
  const names = [...columns.keys()];
  const target = rule['target'];
  if (!Array.isArray(target) || target.length === 0 || !target.every((field) => typeof field === 'string')) {
    throw fail('batch.create.onConflict.target', 'must be a non-empty list of column names that are unique together.');
  }
  for (const field of target as string[]) {
    if (!columns.has(field)) {
      throw fail(
        'batch.create.onConflict.target',
        `names '${field}', which is not a column of ${entity}.${suggestion(field, names)}`,
      );
    }
  }
  const unique = [metadata.primaryKeys, ...(metadata.uniques ?? [])].some(
    (set) => set.length === target.length && set.every((field) => target.includes(field)),
  );
  if (metadata.uniques && !unique) {
    throw fail(
      'batch.create.onConflict.target',
      `is [${target.join(', ')}], which the database does not keep unique on ${entity}. Name the columns of a unique column, index or constraint (or the primary key).`,
    );
  }
  const targetKinds = (target as string[]).map((field) => columns.get(field)!.kind);
  const matched = { target: target as string[], targetKinds };
  const update = rule['update'];
  if (update === 'none') return { ...matched, update: [] as string[] };
  if (update === 'all') return { ...matched, update: 'all' as const };
  if (!Array.isArray(update) || !update.every((field) => typeof field === 'string')) {
    throw fail('batch.create.onConflict.update', "must be a list of fields, 'all' or 'none'.");
  }
  for (const field of update as string[]) {
    const column = columns.get(field);
    if (!column || column.primary || column.generated || target.includes(field)) {
      throw fail(
        'batch.create.onConflict.update',
        `names '${field}', which is not a writable column outside the target.${suggestion(field, names)}`,
      );
    }
  }
  return { ...matched, update: update as string[] };
}

/**
 * An upsert's `update` fields must be writable by a patch (`schema.input.patch`): a matched row is changed as a patch
 * of it would be, never past the patch slot.
 */
export function checkUpsertFields(
  entity: string,
  batch: ResolvedBatch | undefined,
  patchable: ReadonlySet<string>,
): void {
  const update = batch?.upsert?.update;
  if (!update || update === 'all') return;
  for (const field of update) {
    if (patchable.has(field)) continue;
    throw new ConfigurationException({
      entity,
      path: 'batch.create.onConflict.update',
      message: `names '${field}', which the patch slot (schema.input.patch) does not take. Add it there, or leave it out.`,
    });
  }
}
