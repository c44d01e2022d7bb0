/**
 * The request body of one operation: the write slot's schema for createOne, updateOne and patchOne (with the JSON
 * Patch form when a relation takes `jsonPatch` writes), member ids for relation writes, an object for custom writes.
 */
import type { EntityDescription, OperationDescription } from '@svc/core';
import type { DocumentSchemas } from './openapi-components';
import { columnSchema, JSON_PATCH_SCHEMA, type JsonSchema } from './openapi-schemas';

/** One OpenAPI request body object. */
export interface RequestBodyObject {
  readonly required: boolean;
  readonly description?: string;
  readonly content: Record<string, { readonly schema: JsonSchema }>;
}

export function requestBodyOf(
  description: EntityDescription,
  operation: OperationDescription,
  lookup: (name: string) => EntityDescription | undefined,
  schemas: DocumentSchemas,
  owner: string,
): RequestBodyObject | undefined {
  switch (operation.body) {
    case 'create':
    case 'update':
    case 'patch': {
      const slot = schemas.write(description, operation.body, owner);
      const schema = operation.items
        ? { type: 'array', items: slot, minItems: 1, maxItems: operation.items.maxItems }
        : slot;
      const jsonPatch =
        !operation.items &&
        operation.query !== 'filter' &&
        operation.body === 'patch' &&
        description.relations.some((r) => r.write?.strategy === 'jsonPatch');
      return {
        required: true,
        content: {
          'application/json': { schema },
          ...(jsonPatch ? { 'application/json-patch+json': { schema: JSON_PATCH_SCHEMA } } : {}),
        },
      };
    }
    case 'members':
      // A removal names its members in the path or in `?ids=`; it takes no body.
      if (operation.relation?.action === 'remove') return undefined;
      return {
        required: true,
        content: { 'application/json': { schema: membersSchema(description, operation, lookup) } },
      };
    case 'custom': {
      if (!operation.inputSchema) {
        return {
          required: false,
          description: `What the ${operation.id} handler takes.`,
          content: { 'application/json': { schema: { type: 'object' } } },
        };
      }
      const { $schema: _dialect, ...schema } = operation.inputSchema as JsonSchema;
      return {
        required: true,
        description: `What the ${operation.id} handler takes (its schema.input).`,
        content: { 'application/json': { schema } },
      };
    }
    case 'none':
      return undefined;
  }
}

/** Member ids of a relation write: ids, or `{ "<key>": id }` references, at most `write.maxMembers`. */
function membersSchema(
  description: EntityDescription,
  operation: OperationDescription,
  lookup: (name: string) => EntityDescription | undefined,
): JsonSchema {
  const relation = description.relations.find((candidate) => candidate.name === operation.relation?.name);
  const target = relation ? lookup(relation.target) : undefined;
  const keyName = target?.primaryKeys.length === 1 ? target.primaryKeys[0]! : undefined;
  const keyField = keyName ? target!.fields.find((field) => field.name === keyName) : undefined;
  const key: JsonSchema = keyField
    ? columnSchema({ ...keyField, nullable: false }, 'input')
    : { type: ['string', 'integer'] };
  const id: JsonSchema = keyName
    ? { oneOf: [key, { type: 'object', properties: { [keyName]: key }, required: [keyName] }] }
    : key;
  return {
    type: 'array',
    description: `${relation?.target ?? 'Member'} ids, or references such as { "${keyName ?? 'id'}": 7 }.`,
    items: id,
    ...(relation?.write ? { maxItems: relation.write.maxMembers } : {}),
  };
}
