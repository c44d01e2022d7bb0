/**
 * The input schema of an operation's tool, rendered from the operation's schemas: the row's key as `id` (the path
 * parameter REST names after the lookup field), the body as `data`, and the query's properties as they are, except
 * that agents page by offset: a `page` object becomes `limit` and `offset` (the call turns them back into the page).
 * A named schema is written in place; one that refers to itself (the filter's groups) stays under `$defs`.
 */
import { type EntityDescription, type OperationDescription } from '@svc/core';
import { mapSchemaRefs, schemaNameOf } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';

/** The input schema of the operation's tool. */
export function inputSchemaOf(description: EntityDescription, operation: OperationDescription): JsonSchema {
  const { params, query, body } = operation.schemas;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const requiredParams = new Set(requiredOf(params));
  for (const [name, schema] of Object.entries(propertiesOf(params))) {
    const argument = name === description.lookup.param ? 'id' : name;
    properties[argument] = schema;
    if (requiredParams.has(name)) required.push(argument);
  }
  if (body) {
    properties['data'] = body.schema;
    if (body.required) required.push('data');
  }
  Object.assign(properties, offsetPaging(propertiesOf(query)));
  required.push(...requiredOf(query));
  const defs = new SchemaInliner(description.schemas);
  const inlined = defs.inline(properties) as Record<string, JsonSchema>;
  return {
    type: 'object',
    properties: inlined,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(defs.kept.size > 0 ? { $defs: Object.fromEntries(defs.kept) } : {}),
  };
}

/** A `page` object's `size` and `number` as `limit` and `offset` (a multiple of limit). */
function offsetPaging(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const page = properties['page'];
  if (!page) return properties;
  const { page: _page, ...rest } = properties;
  const size = propertiesOf(page)['size'] ?? { type: 'integer', minimum: 1 };
  return {
    ...rest,
    limit: size,
    offset: {
      type: 'integer',
      minimum: 0,
      description: 'Items to skip: a multiple of limit (this entity pages by page number).',
    },
  };
}

/**
 * Writes the entity's named schemas in place of their `$ref`s, keeping under `$defs` those that refer to
 * themselves, which cannot be written out.
 */
export class SchemaInliner {
  /** The named schemas kept under `$defs`, by name. */
  readonly kept = new Map<string, JsonSchema>();

  constructor(private readonly named: Readonly<Record<string, JsonSchema>>) {}

  inline(value: unknown, open: ReadonlySet<string> = new Set()): unknown {
    return mapSchemaRefs(value, (pointer, ref) => {
      const name = schemaNameOf(pointer);
      const named = name === undefined ? undefined : this.named[name];
      if (name === undefined || named === undefined) return ref;
      if (open.has(name) || refersTo(named, name)) {
        if (!this.kept.has(name)) {
          this.kept.set(name, {});
          this.kept.set(name, this.inline(named, new Set([...open, name])) as JsonSchema);
        }
        return ref;
      }
      const { $ref: _ref, ...siblings } = ref;
      return { ...(this.inline(named, new Set([...open, name])) as object), ...siblings };
    });
  }
}

/** Whether `schema` holds a `$ref` to the named schema `name`. */
function refersTo(schema: unknown, name: string): boolean {
  return JSON.stringify(schema).includes(`"$ref":"#/$defs/${name}"`);
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  return (schema?.['required'] as string[] | undefined) ?? [];
}
