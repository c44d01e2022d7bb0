/**
 * `schema.output.item` / `schema.output.list`: a field list, or a class whose instances have runtime fields. Either
 * replaces the select projection of that response shape (and wins even where wider than select.fields).
 */
import { suggestion } from '../config/did-you-mean';
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { isStandardSchema, standardValidator, type BodyValidator } from './body-validators';
import type { OutputSlot } from '../config/entity-config';

export type { OutputSlot };

/** The fields of the slot, or undefined when it does not replace the projection (unset, or a class without runtime fields). */
export function buildOutputSlot(
  entity: string,
  metadata: EntityMetadata,
  slot: 'item' | 'list',
  value: unknown,
  path = `schema.output.${slot}`,
): readonly string[] | undefined {
  if (value === undefined || isStandardSchema(value)) return undefined;
  if (typeof value === 'function') return classFields(entity, path, value as new () => object);
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.fields)
      ? (value.fields as unknown[])
      : undefined;
  if (!list) {
    throw new ConfigurationException({
      entity,
      path,
      message: 'must be a field list ([...] or { fields: [...] }), a class, or a Standard Schema validator.',
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

/**
 * A Standard Schema on an output slot asserts what is served: a served item that fails it is a server fault,
 * answered 500 SVC_CONFIG_INVALID naming the slot (the body is never sent).
 */
export function outputValidatorOf(value: unknown, path: string): OutputValidator | undefined {
  if (!isStandardSchema(value)) return undefined;
  const validate = standardValidator(value);
  return { path, validate };
}

export interface OutputValidator {
  readonly path: string;
  readonly validate: BodyValidator;
}

/** Checks served items against the slot's validator. */
export async function assertOutput(
  entity: string,
  validator: OutputValidator | undefined,
  items: readonly unknown[],
): Promise<void> {
  if (!validator) return;
  for (const item of items) {
    const outcome = await validator.validate(item);
    if ('errors' in outcome) {
      const detail = outcome.errors.map((error) => `${error.field || '(item)'}: ${error.detail}`).join('; ');
      throw new ConfigurationException({
        entity,
        path: validator.path,
        message: `the served item does not satisfy it (${detail}).`,
      });
    }
  }
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
