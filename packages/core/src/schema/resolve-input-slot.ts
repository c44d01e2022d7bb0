/** One write slot (create, update or patch) from what configures it: a field list, a schema class or a validator. */
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import {
  inputJsonSchemaOf,
  isStandardSchema,
  requireClassSchemas,
  standardValidator,
  type ClassSchemaAdapter,
} from './body-validators';
import { slotJsonSchema, type SlotColumn } from './slot-json-schema';
import { buildWriteSchema, type WriteSchema, type WriteSlot } from './write-schema';

export interface InputSlotArgs {
  readonly entity: string;
  readonly metadata: EntityMetadata;
  readonly slot: WriteSlot;
  readonly value: unknown;
  /** Key path of the value, for errors (`schema.input.create`, `operations.createOne.schema.input`). */
  readonly path: string;
  readonly classSchemas?: ClassSchemaAdapter;
  /** Per-operation parts take a class or a validator only. */
  readonly validatorsOnly?: boolean;
}

export function resolveInputSlot(args: InputSlotArgs): WriteSchema {
  const { entity, metadata, slot, value, path } = args;
  if (value === undefined) return buildWriteSchema({ entity, metadata, slot });
  if (typeof value === 'function') {
    const adapter = requireClassSchemas(args.classSchemas, entity, path);
    const schema = value as Function;
    const fields = adapter.fieldsOf(schema);
    const base = buildWriteSchema({ entity, metadata, slot, list: fields });
    const stated = inputJsonSchemaOf(schema, adapter, { partial: slot === 'patch' });
    const jsonSchema = stated && slotJsonSchema(stated, columnsOf(base));
    return {
      ...base,
      validator: (body) => adapter.validate(schema, body, { partial: slot === 'patch' }),
      ...(jsonSchema ? { jsonSchema } : {}),
    };
  }
  if (isStandardSchema(value)) {
    const base = buildWriteSchema({ entity, metadata, slot });
    const stated = inputJsonSchemaOf(value, undefined);
    const jsonSchema = stated && slotJsonSchema(stated, columnsOf(base));
    return {
      ...base,
      validator: standardValidator(value),
      ...(jsonSchema ? { jsonSchema } : {}),
    };
  }
  const list = Array.isArray(value) || (isPlainObject(value) && Array.isArray(value.fields));
  if (!list || args.validatorsOnly) {
    throw new ConfigurationException({
      entity,
      path,
      message: args.validatorsOnly
        ? 'takes a schema class or a Standard Schema validator only; put field lists on the entity root schema.input.'
        : 'must be a field list ([...] or { fields: [...] }), a schema class, or a Standard Schema validator.',
    });
  }
  return buildWriteSchema({ entity, metadata, slot, list: value as string[] | { fields: string[] } });
}

/** The columns a slot writes, by the names its body sends them under. */
function columnsOf(schema: WriteSchema): SlotColumn[] {
  return [...schema.fields].flatMap(([name, field]) =>
    field.kind === 'column' ? [{ name, kind: field.column.kind, nullable: field.column.nullable }] : [],
  );
}
