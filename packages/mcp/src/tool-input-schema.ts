/**
 * The input schema of each standard operation's tool, derived from the entity's description: the id by key kind,
 * the write slot as `data`, and the list arguments with their allowlists and bounds.
 */
import { type EntityDescription, type OperationDescription } from '@svc/core';
import { aggregateArgumentsJsonSchema, referenceRulesJsonSchema } from '@svc/core/spi';
import { filterSchema, FILTER_REF } from './filter-schema';
import { nullable, scalarSchema, type JsonSchema } from './json-schema';

/** The schema of the `id` argument: the lookup field's kind, or an object of the key's fields for a composite key. */
export function idSchema(description: EntityDescription): JsonSchema {
  const kinds = new Map(description.fields.map((field) => [field.name, field]));
  const { fields } = description.lookup;
  if (fields.length === 1) {
    const field = kinds.get(fields[0]!);
    return {
      ...scalarSchema({ kind: field?.kind ?? 'string' }),
      description: `The ${description.name}'s ${fields[0]}.`,
    };
  }
  return {
    type: 'object',
    description: `The ${description.name}'s key: ${fields.join(', ')}.`,
    properties: Object.fromEntries(
      fields.map((name) => [name, scalarSchema({ kind: kinds.get(name)?.kind ?? 'string' })]),
    ),
    required: [...fields],
    additionalProperties: false,
  };
}

type SlotName = keyof EntityDescription['write'];

/**
 * The `data` argument of a write: exactly the slot's writable fields, a reference or its foreign-key column but not
 * both; on create and update the required ones, and one of each required reference and its foreign-key column.
 */
export function dataSchema(description: EntityDescription, slot: SlotName): JsonSchema {
  const write = description.write[slot];
  const rules = referenceRulesJsonSchema(description, slot);
  const properties: Record<string, JsonSchema> = {};
  for (const field of write.fields) {
    const value: JsonSchema =
      field.kind === 'reference'
        ? {
            type: 'object',
            description: `A reference to a ${field.target!.entity} by its ${field.target!.key}.`,
            properties: { [field.target!.key]: scalarSchema({ kind: field.target!.keyKind }) },
            required: [field.target!.key],
            additionalProperties: false,
          }
        : scalarSchema({ kind: field.kind, enumValues: field.enumValues, list: field.list });
    properties[field.name] = field.nullable ? nullable(value) : value;
  }
  return {
    type: 'object',
    description:
      slot === 'patch'
        ? `The ${description.name} fields to change; the others keep their values.`
        : slot === 'update'
          ? `Every writable ${description.name} field: one left out is reset to its default (a replace).`
          : `The new ${description.name}'s fields.`,
    properties,
    ...(slot === 'patch' ? { minProperties: 1 } : write.required.length > 0 ? { required: [...write.required] } : {}),
    ...(rules.length > 0 ? { allOf: rules } : {}),
    additionalProperties: false,
  };
}

/** `field` and `-field` for each sortable field. */
function sortSchema(description: EntityDescription): JsonSchema | undefined {
  if (description.pagination.ownsSort || description.sort.fields.length === 0) return undefined;
  const keys = description.sort.fields.flatMap((field) => [field, `-${field}`]);
  return {
    type: 'array',
    description: 'Sort keys in order; a leading - sorts descending.',
    items: { enum: keys },
    uniqueItems: true,
  };
}

function selectSchema(description: EntityDescription): JsonSchema | undefined {
  if (description.select.fields.length === 0) return undefined;
  return {
    type: 'array',
    description: 'The fields to return (default: every readable field).',
    items: { enum: [...description.select.fields] },
    uniqueItems: true,
  };
}

function includeSchema(description: EntityDescription): JsonSchema | undefined {
  if (description.include.relations.length === 0) return undefined;
  return {
    type: 'array',
    description: 'Relations to embed in each item.',
    items: { enum: description.include.relations.map((relation) => relation.name) },
    uniqueItems: true,
  };
}

/** limit and offset, with the real bounds, for the strategies that page (offset, page). */
function pagingProperties(description: EntityDescription): Record<string, JsonSchema> {
  const { pagination } = description;
  if (pagination.strategy === 'none') return {};
  return {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: pagination.maxLimit,
      description: `Items per page (default ${pagination.defaultLimit}, at most ${pagination.maxLimit}).`,
    },
    offset: {
      type: 'integer',
      minimum: 0,
      description:
        pagination.strategy === 'page'
          ? 'Items to skip: a multiple of limit (this entity pages by page number).'
          : 'Items to skip.',
    },
  };
}

function readProperties(description: EntityDescription): Record<string, JsonSchema> {
  const select = selectSchema(description);
  const include = includeSchema(description);
  return { ...(select ? { select } : {}), ...(include ? { include } : {}) };
}

function object(properties: Record<string, JsonSchema>, required: string[], defs?: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(defs ? { $defs: defs } : {}),
  };
}

/** The list arguments: filter, sort, select, include, search, paging and the deleted-row switches, as served. */
function listProperties(description: EntityDescription): { properties: Record<string, JsonSchema>; defs?: JsonSchema } {
  const filter = filterSchema(description);
  const sort = sortSchema(description);
  const properties: Record<string, JsonSchema> = {
    ...(filter ? { filter: { $ref: FILTER_REF } } : {}),
    ...(sort ? { sort } : {}),
    ...readProperties(description),
    ...(description.search
      ? { search: { type: 'string', description: `Text searched in ${description.search.fields.join(', ')}.` } }
      : {}),
    ...pagingProperties(description),
    ...(description.softDelete
      ? {
          withDeleted: { type: 'boolean', description: 'Also list deleted rows.' },
          onlyDeleted: { type: 'boolean', description: 'List only deleted rows.' },
        }
      : {}),
  };
  return { properties, ...(filter ? { defs: { filter } } : {}) };
}

/**
 * The input schema of an operation's tool, from what the operation takes: `id` when it addresses a row, `data` in its
 * write slot, and the list or item query arguments.
 */
export function inputSchemaOf(description: EntityDescription, operation: OperationDescription): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let defs: JsonSchema | undefined;
  if (operation.takesId) {
    properties['id'] = idSchema(description);
    required.push('id');
  }
  if (operation.body === 'create' || operation.body === 'update' || operation.body === 'patch') {
    const data = dataSchema(description, operation.body);
    properties['data'] = operation.items
      ? {
          type: 'array',
          description: `The ${description.name} rows to write, all or nothing: at most ${operation.items.maxItems} a call (batch.maxItems).`,
          items: data,
          minItems: 1,
          maxItems: operation.items.maxItems,
        }
      : data;
    required.push('data');
  }
  if (operation.query === 'filter') {
    const filter = filterSchema(description);
    if (filter) {
      properties['filter'] = { $ref: FILTER_REF, description: 'The rows to change (required).' };
      required.push('filter');
      defs = { filter };
    }
  }
  if (operation.aggregate) {
    // The list's filter, search and row view, beside the aggregate's own arguments (no select, sort or paging of rows).
    const list = listProperties(description);
    const taken = ['filter', 'search', 'withDeleted', 'onlyDeleted'];
    for (const key of taken) if (list.properties[key]) properties[key] = list.properties[key];
    Object.assign(properties, aggregateArgumentsJsonSchema(operation.aggregate));
    defs = list.defs;
  } else if (operation.query === 'list') {
    const list = listProperties(description);
    Object.assign(properties, list.properties);
    defs = list.defs;
  } else if (operation.query === 'item') Object.assign(properties, readProperties(description));
  return object(properties, required, defs);
}
