/**
 * JSON Schemas of what Svc serves and takes, built from the description API in OpenAPI 3.1 form: a value that may
 * be null has a type list holding `'null'` (never 3.0's `nullable`), so the document is valid 3.1 as it is.
 */
import { type EntityDescription, FieldDescription, WriteFieldDescription } from '@svc/core';
import {
  admitNull,
  columnJsonSchema,
  PROBLEM_JSON_SCHEMA,
  referenceRulesJsonSchema,
  type ColumnSchemaSource,
  type SchemaDirection,
} from '@svc/core/spi';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

export { admitNull, type SchemaDirection };

/** The schema of one column value, by its kind; `nullable` admits null through the type list. */
export function columnSchema(field: ColumnSchemaSource, direction: SchemaDirection): JsonSchema {
  return columnJsonSchema(field, direction) as JsonSchema;
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
  const allOf = referenceRulesJsonSchema(description, slot);
  return {
    type: 'object',
    title,
    properties,
    ...(write.required.length > 0 ? { required: [...write.required] } : {}),
    ...(allOf.length > 0 ? { allOf } : {}),
    additionalProperties: false,
  };
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
export const PROBLEM_SCHEMA: JsonSchema = PROBLEM_JSON_SCHEMA as JsonSchema;
