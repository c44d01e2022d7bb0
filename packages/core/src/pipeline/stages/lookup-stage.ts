/** Turns the route id into lookup values (the `lookup` stage), coerced by column kind; a malformed id is a 400 naming `id`. */
import { NotFoundException, QueryInvalidException } from '../../errors/svc-exception';
import type { EntityKey } from '../../persistence/entity-metadata';
import type { Row } from '../../persistence/repository-adapter';
import { coerceFilterValue } from '../../schema/coerce-filter-value';
import type { OperationCall } from '../operation-call';
import { stage } from '../stage';

/** The lookup key of `raw` (by default the request's id), coerced by column kind; a malformed one is a 400. */
export function readLookupKey(call: OperationCall, raw: unknown = call.request.id): EntityKey {
  const { entity } = call;
  const { fields, param } = entity.lookup;
  if (raw === undefined || raw === null || raw === '') {
    throw new QueryInvalidException([{ param, code: 'required', detail: `${param} is required.` }]);
  }
  const parts = fields.length === 1 ? [raw] : String(raw).split(',');
  if (parts.length !== fields.length) {
    throw new QueryInvalidException([
      {
        param,
        code: 'invalid_value',
        detail: `${param} must give ${fields.length} comma-separated key values (${fields.join(', ')}).`,
      },
    ]);
  }
  const key: Record<string, unknown> = {};
  fields.forEach((field, index) => {
    const column = entity.metadata.columns.find((candidate) => candidate.property === field)!;
    const coerced = coerceFilterValue(column, parts[index]);
    if (!coerced.ok) {
      if (column.kind === 'uuid' || column.kind === 'enum') throw new NotFoundException(entity.name, raw);
      throw new QueryInvalidException([
        {
          param,
          code: 'invalid_value',
          detail: `${param} ${coerced.reason}; got '${String(parts[index]).slice(0, 40)}'.`,
        },
      ]);
    }
    key[field] = coerced.value;
  });
  return key;
}

/** What a handler gets for a lookup key: `id` as a plain value for a single-field key (an object for a composite one), and `key` always as the object. */
export function handlerIds(key: EntityKey | undefined): { id?: unknown; key?: EntityKey } {
  if (key === undefined) return {};
  const values = Object.values(key);
  return { id: values.length === 1 ? values[0] : key, key };
}

/** The primary-key values of a loaded row (writes always address the real primary key). */
export function primaryKeyOf(call: OperationCall, row: Row): EntityKey {
  const key: Record<string, unknown> = {};
  for (const field of call.entity.metadata.primaryKeys) key[field] = row[field];
  return key;
}

/** lookup: the route id as lookup values (a malformed id is a 400 naming it). */
export const lookupStage = stage('lookup', { phase: 'input', gives: ['lookup'] }, (call, state) => {
  state.lookup = readLookupKey(call);
});

/** lookup?: the same, for an operation that may be called with or without an id (a custom operation). */
export const optionalLookupStage = stage('lookup?', { phase: 'input' }, (call, state) => {
  if (call.request.id !== undefined) state.lookup = readLookupKey(call);
});
