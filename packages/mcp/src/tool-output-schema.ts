/**
 * The output schema of each tool, rendered from the operation's success response: its body, written out in full;
 * for a success without a body, what the call did to the row (`{ id, deleted: true }`); and a page says whether more
 * rows follow it (`hasMore`, `nextOffset`). A refused or failed call serves the problem object; strict clients check
 * every result against it.
 */
import { type EntityDescription, type OperationDescription } from '@svc/core';
import { PROBLEM_JSON_SCHEMA } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';
import { SchemaInliner } from './tool-input-schema';

/** The problem object (RFC 9457 problem details with Svc's code) that a failed call serves as structured content. */
export const PROBLEM_SCHEMA: JsonSchema = {
  ...PROBLEM_JSON_SCHEMA,
  description: 'A refused or failed call (isError): the problem, with its SVC_* code.',
};

/** What a success of the operation serves. */
export function successSchemaOf(description: EntityDescription, operation: OperationDescription): JsonSchema {
  const success = operation.schemas.responses[String(operation.successStatus)];
  if (!success?.schema) return receiptSchema(description, receiptFlagOf(operation));
  const body = new SchemaInliner(description.schemas).inline(success.schema) as JsonSchema;
  return operation.answers === 'list' ? withPaging(body) : body;
}

/** What a removal did to the row. */
function receiptSchema(description: EntityDescription, flag: string): JsonSchema {
  return {
    type: 'object',
    description: `The ${description.name} that was ${flag}.`,
    properties: { id: {}, [flag]: { type: 'boolean' } },
    required: ['id', flag],
  };
}

/** A page with whether more rows follow it and where the next page starts. */
function withPaging(page: JsonSchema): JsonSchema {
  const properties = (page['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  return {
    ...page,
    properties: {
      ...properties,
      hasMore: { type: 'boolean', description: 'More rows match than this page holds: ask again with nextOffset.' },
      nextOffset: { type: 'integer', minimum: 0, description: 'The offset of the next page, when there is one.' },
    },
    required: [...((page['required'] as string[] | undefined) ?? []), 'hasMore'],
  };
}

/** The flag a removal's result carries (`deleted`, `purged`). */
export function receiptFlagOf(operation: OperationDescription): string {
  return operation.wording?.done ?? 'done';
}

/** The tool's `outputSchema`: its success, or the problem object of a failed call. */
export function outputSchemaOf(success: JsonSchema): JsonSchema {
  return { type: 'object', anyOf: [success, PROBLEM_SCHEMA] };
}
