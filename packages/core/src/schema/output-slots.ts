/**
 * `schema.output.item` / `schema.output.list`: a field list, or a class whose instances have runtime fields. Either
 * replaces the select projection of that response shape (and wins even where wider than select.fields).
 */
import { suggestion } from '../config/did-you-mean';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';

/** A field list (bare or `{ fields }`), or a class. */
export type OutputSlot = readonly string[] | { readonly fields: readonly string[] } | (new () => object);

/** The fields of the slot, or undefined when it does not replace the projection (unset, or a class without runtime fields). */
export function buildOutputSlot(
  entity: string,
  metadata: EntityMetadata,
  slot: 'item' | 'list',
  value: unknown,
  path = `schema.output.${slot}`,
): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return classFields(entity, path, value as new () => object);
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.fields)
      ? (value.fields as unknown[])
      : undefined;
  if (!list) {
    const validator = isPlainObject(value) && '~standard' in value;
    throw new ConfigurationException({
      entity,
      path,
      message: validator
        ? 'Standard Schema validators are not supported on output slots by this version of Svc yet. Use a field list or a class.'
        : 'must be a field list ([...] or { fields: [...] }) or a class.',
    });
  }
  const columns = metadata.columns.map((column) => column.property);
  for (const name of list) {
    if (typeof name !== 'string' || !columns.includes(name)) {
      throw new ConfigurationException({
        entity,
        path,
        message: `'${String(name)}' is not a column of ${entity}.${suggestion(String(name), columns)}`,
      });
    }
  }
  return Object.freeze([...(list as string[])]);
}

function classFields(entity: string, path: string, shape: new () => object): readonly string[] | undefined {
  let instance: object;
  try {
    instance = new shape();
  } catch (error) {
    throw new ConfigurationException({
      entity,
      path,
      message: `the class ${shape.name} cannot be constructed without arguments (${String(error)}).`,
    });
  }
  const fields = Object.keys(instance);
  return fields.length > 0 ? Object.freeze(fields) : undefined;
}
