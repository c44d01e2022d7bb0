/**
 * The output schema of each tool: what a success serves (the item, the list envelope, or the outcome of a delete),
 * or, for a refused or failed call, the problem object; strict clients check every result against it.
 */
import { type EntityDescription, type OperationDescription } from '@svc/core';
import { aggregateResultJsonSchema, PROBLEM_JSON_SCHEMA } from '@svc/core/spi';
import { servedSchema, type JsonSchema } from './json-schema';

/** The problem object (RFC 9457 problem details with Svc's code) that a failed call serves as structured content. */
export const PROBLEM_SCHEMA: JsonSchema = {
  ...PROBLEM_JSON_SCHEMA,
  description: 'A refused or failed call (isError): the problem, with its SVC_* code.',
};

/** An item as served: the output fields with their kinds; embedded relations are extra keys. */
function itemSchema(description: EntityDescription, fields: readonly string[]): JsonSchema {
  const byName = new Map(description.fields.map((field) => [field.name, field]));
  const properties: Record<string, JsonSchema> = {};
  for (const name of fields) {
    const field = byName.get(name);
    properties[name] = field ? servedSchema({ kind: field.kind, nullable: field.nullable, list: field.list }) : {};
  }
  return { type: 'object', description: `A ${description.name}.`, properties };
}

function listSchema(description: EntityDescription): JsonSchema {
  return {
    type: 'object',
    description: `A page of ${description.name} items.`,
    properties: {
      items: { type: 'array', items: itemSchema(description, description.output.list) },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      total: { type: ['integer', 'null'], description: 'Size of the whole match set (null when not counted).' },
      meta: { type: 'object' },
      hasMore: { type: 'boolean', description: 'More rows match than this page holds: ask again with nextOffset.' },
      nextOffset: { type: 'integer', minimum: 0, description: 'The offset of the next page, when there is one.' },
    },
    required: ['items', 'limit', 'offset', 'total', 'hasMore'],
  };
}

function removedSchema(description: EntityDescription, flag: string): JsonSchema {
  return {
    type: 'object',
    description: `The ${description.name} that was ${flag}.`,
    properties: { id: {}, [flag]: { type: 'boolean' } },
    required: ['id', flag],
  };
}

/** A batch's rows in order (a delete's as their keys), their count, and an upsert's created and updated counts. */
function batchSchema(description: EntityDescription, operation: OperationDescription): JsonSchema {
  const keys = operation.body === 'none';
  const fields = keys ? description.lookup.fields : description.output.item;
  return {
    type: 'object',
    description: keys ? `The keys of the ${description.name} rows removed.` : `The ${description.name} rows written.`,
    properties: {
      items: { type: 'array', items: itemSchema(description, fields) },
      total: { type: 'integer' },
      meta: {
        type: 'object',
        properties: { created: { type: 'integer' }, updated: { type: 'integer' } },
      },
    },
    required: ['items', 'total'],
  };
}

/** What a success of the operation serves: a page, the row, a batch's rows, or for a removal what was done to it. */
export function successSchemaOf(description: EntityDescription, operation: OperationDescription): JsonSchema {
  if (operation.answers === 'list') return listSchema(description);
  if (operation.aggregate) return aggregateResultJsonSchema(operation.aggregate);
  if (operation.answers === 'batch') return batchSchema(description, operation);
  if (operation.answers === 'none') return removedSchema(description, receiptFlagOf(operation));
  return itemSchema(description, description.output.item);
}

/** The flag a removal's result carries (`deleted`, `purged`). */
export function receiptFlagOf(operation: OperationDescription): string {
  return operation.wording?.done ?? 'done';
}

/** The tool's `outputSchema`: its success, or the problem object of a failed call. */
export function outputSchemaOf(success: JsonSchema): JsonSchema {
  return { type: 'object', anyOf: [success, PROBLEM_SCHEMA] };
}
