/**
 * JSON Schemas of what Svc serves and takes, built from the description API in OpenAPI 3.1 form: a value that may
 * be null has a type list holding `'null'` (never 3.0's `nullable`), so the document is valid 3.1 as it is.
 */
import type {
  ColumnKind,
  EntityDescription,
  FieldDescription,
  WriteFieldDescription,
  WriteSlotDescription,
} from '@svc/core';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/** Whether a schema describes what a client sends (format checks apply) or what the server answers. */
export type SchemaDirection = 'input' | 'output';

/** The schema of one column value, by its kind; `nullable` admits null through the type list. */
export function columnSchema(
  field: {
    readonly kind: ColumnKind;
    readonly nullable: boolean;
    readonly enumValues?: readonly (string | number)[];
    readonly length?: number;
  },
  direction: SchemaDirection,
): JsonSchema {
  const schema = baseSchema(field, direction);
  return field.nullable ? admitNull(schema) : schema;
}

function baseSchema(
  field: { readonly kind: ColumnKind; readonly enumValues?: readonly (string | number)[]; readonly length?: number },
  direction: SchemaDirection,
): JsonSchema {
  switch (field.kind) {
    case 'string':
      return direction === 'input' && field.length !== undefined
        ? { type: 'string', maxLength: field.length }
        : { type: 'string' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'integer':
      return { type: 'integer', ...(direction === 'input' ? { minimum: -2147483648, maximum: 2147483647 } : {}) };
    case 'number':
      return { type: 'number' };
    // Drivers answer 64-bit integers and decimals as strings where JavaScript numbers would lose precision.
    case 'bigint':
      return { type: ['integer', 'string'], pattern: '^-?\\d{1,19}$' };
    case 'decimal':
      return { type: ['number', 'string'], pattern: '^-?\\d+(\\.\\d+)?$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {};
    case 'enum': {
      const values = [...(field.enumValues ?? [])];
      const types = [...new Set(values.map((value) => (typeof value === 'number' ? 'number' : 'string')))];
      return { type: types.length === 1 ? types[0] : types, enum: values };
    }
  }
}

/** The same schema, admitting null as well (3.1: `'null'` in the type list, and in `enum` when there is one). */
export function admitNull(schema: JsonSchema): JsonSchema {
  if (schema['type'] === undefined) return schema; // no type: null is admitted already
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string];
  return {
    ...schema,
    type: types.includes('null') ? types : [...types, 'null'],
    ...(Array.isArray(schema['enum']) ? { enum: [...(schema['enum'] as unknown[]), null] } : {}),
  };
}

/** Finds an entity's description by name, for the relations it embeds. */
export type DescriptionLookup = (entity: string) => EntityDescription | undefined;

/**
 * One served row: the fields of `fields` (the item or the list output) and, as optional members, the relations a read
 * may embed with `include` (each the target's own list shape, or an open object when the target is not served).
 */
export function rowSchema(
  description: EntityDescription,
  fields: readonly string[],
  lookup: DescriptionLookup,
): JsonSchema {
  const byName = new Map(description.fields.map((field) => [field.name, field]));
  const properties: Record<string, JsonSchema> = {};
  for (const name of fields) {
    const field = byName.get(name);
    properties[name] = field ? columnSchema(field, 'output') : {};
  }
  for (const relation of description.include.relations) {
    const kind = description.relations.find((candidate) => candidate.name === relation.name)?.kind;
    const target = lookup(relation.target);
    const member: JsonSchema = target ? shallowRowSchema(target) : { type: 'object' };
    properties[relation.name] =
      kind === 'one-to-many' || kind === 'many-to-many' ? { type: 'array', items: member } : admitNull(member);
  }
  return { type: 'object', title: description.name, properties };
}

/** An embedded row: its list fields, open to the members a nested include adds. */
function shallowRowSchema(description: EntityDescription): JsonSchema {
  const byName = new Map<string, FieldDescription>(description.fields.map((field) => [field.name, field]));
  const properties: Record<string, JsonSchema> = {};
  for (const name of description.output.list) {
    const field = byName.get(name);
    properties[name] = field ? columnSchema(field, 'output') : {};
  }
  return { type: 'object', title: description.name, properties };
}

/**
 * The list envelope: `items`, `total` (null when counting is off), `limit`, `offset`, and `meta` with the position of
 * the next page under the `cursor` (`nextCursor`) and `since` (`nextSince`) strategies.
 */
export function listEnvelopeSchema(description: EntityDescription | undefined, item: JsonSchema): JsonSchema {
  const strategy = description?.pagination.strategy;
  const next = strategy === 'cursor' ? 'nextCursor' : strategy === 'since' ? 'nextSince' : undefined;
  const meta: JsonSchema = next
    ? {
        type: 'object',
        description:
          next === 'nextCursor'
            ? '`nextCursor`: send it as `cursor` for the next page; null on the last page.'
            : '`nextSince`: send it as `since` on the next poll.',
        properties: { [next]: { type: ['string', 'null'] } },
        required: [next],
      }
    : { type: 'object', description: 'Members a list handler adds (`withListMeta`).' };
  return {
    type: 'object',
    properties: {
      items: { type: 'array', items: item },
      total: { type: ['integer', 'null'], minimum: 0, description: 'Rows matching the filter; null when not counted.' },
      limit: { type: 'integer', minimum: 0 },
      offset: { type: 'integer', minimum: 0 },
      meta,
    },
    required: next ? ['items', 'total', 'limit', 'offset', 'meta'] : ['items', 'total', 'limit', 'offset'],
  };
}

/**
 * A write body from its slot: the JSON Schema a Standard Schema validator exposes, else the slot's writable fields
 * (references as `{ "<key>": id }`), with the slot's required fields, and no other key.
 */
export function writeBodySchema(
  description: EntityDescription,
  slot: 'create' | 'update' | 'patch',
  title: string,
): JsonSchema {
  const write = description.write[slot];
  if (write.jsonSchema) {
    const { $schema: _dialect, ...schema } = write.jsonSchema as JsonSchema;
    return { title, ...schema };
  }
  const properties: Record<string, JsonSchema> = {};
  for (const field of write.fields) properties[field.name] = writeFieldSchema(field);
  const references = referenceRules(description, write, slot);
  const required = [...write.required, ...references.required];
  return {
    type: 'object',
    title,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(references.allOf.length > 0 ? { allOf: references.allOf } : {}),
    additionalProperties: false,
  };
}

/**
 * What the database asks of to-one references: a reference that may not be null must be sent on create and on the
 * replace of update, as the reference or as its mapped foreign-key column (one of the two, never both).
 */
function referenceRules(
  description: EntityDescription,
  write: WriteSlotDescription,
  slot: 'create' | 'update' | 'patch',
): { required: string[]; allOf: JsonSchema[] } {
  const inSlot = new Set(write.fields.map((field) => field.name));
  const required: string[] = [];
  const allOf: JsonSchema[] = [];
  for (const field of write.fields) {
    if (field.kind !== 'reference') continue;
    const column = description.fields.find(
      (candidate) => candidate.foreignKeyOf === field.name && inSlot.has(candidate.name),
    );
    if (column) allOf.push({ not: { required: [field.name, column.name] } });
    if (slot === 'patch' || field.nullable) continue;
    if (column) allOf.push({ anyOf: [{ required: [field.name] }, { required: [column.name] }] });
    else required.push(field.name);
  }
  return { required, allOf };
}

function writeFieldSchema(field: WriteFieldDescription): JsonSchema {
  if (field.kind !== 'reference') return columnSchema({ ...field, kind: field.kind }, 'input');
  const target = field.target!;
  const reference: JsonSchema = {
    type: 'object',
    description: `A reference to a ${target.entity} by its ${target.key}.`,
    properties: { [target.key]: columnSchema({ kind: target.keyKind, nullable: false }, 'input') },
    required: [target.key],
  };
  return field.nullable ? admitNull(reference) : reference;
}

/** An RFC 6902 JSON Patch: the operations Svc applies to a row and its to-many relations. */
export const JSON_PATCH_SCHEMA: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      op: { type: 'string', enum: ['add', 'remove', 'replace', 'test'] },
      path: { type: 'string', description: '`/<field>`, `/<relation>/-` or `/<relation>/<memberId>`.' },
      value: {},
    },
    required: ['op', 'path'],
  },
};

/** A problem details object (RFC 9457) as Svc answers every error. */
export const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', description: 'A stable URI per code.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What went wrong and what to do next.' },
    instance: { type: 'string' },
    code: { type: 'string', description: 'The SVC_* code.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          param: { type: 'string' },
          field: { type: 'string' },
          code: { type: 'string' },
          detail: { type: 'string' },
        },
        required: ['code', 'detail'],
      },
    },
    requestId: { type: 'string' },
  },
  required: ['type', 'title', 'status', 'code'],
};
