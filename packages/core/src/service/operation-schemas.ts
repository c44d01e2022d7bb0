/**
 * What each operation takes and answers, as JSON Schema (draft 2020-12): its path parameters, its query as a
 * programmatic call passes it, its conditional headers, its body and its responses by status, in the manner of a
 * Fastify route's `schema`. Built once per operation from its shapes, each by an exhaustive switch, so a new shape
 * does not compile until it is written here; the surfaces (the agent tools, the OpenAPI document) render these
 * schemas and never classify an operation themselves.
 */
import { aggregateArgumentsJsonSchema } from './aggregate-json-schema';
import { columnJsonSchema, type JsonSchema } from './json-schema';
import type { DescribedEntity, EntitySchemas } from './entity-schemas';
import { responsesOf, type Sources } from './operation-responses';
import type { BodySchema, BodyShape, OperationSchemas, OperationShapes, QueryShape } from './entity-description';

/** The schemas of one operation of `entity`, naming in `schemas` the shared ones it refers to. */
export function operationSchemasOf(sources: Sources): OperationSchemas {
  const query = queryOf(sources);
  const body = bodyOf(sources);
  const params = paramsOf(sources);
  return {
    params,
    query: object(query.properties, query.required),
    queryNames: query.properties['search'] ? { search: 'search[query]' } : {},
    headers: headersOf(sources.operation),
    ...(body ? { body } : {}),
    responses: responsesOf(sources, Object.keys(params['properties'] as object).length > 0),
  };
}

function object(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}

/** The route's `:name` segments; the row's key is typed by its columns, any other segment is text. */
function paramsOf({ entity, operation }: Sources): JsonSchema {
  const names = [...(operation.route?.path ?? '').matchAll(/:(\w+)/g)].map((match) => match[1]!);
  if (operation.takesId && !names.includes(entity.lookup.param)) names.unshift(entity.lookup.param);
  const properties: Record<string, JsonSchema> = {};
  for (const name of names) properties[name] = name === entity.lookup.param ? keySchema(entity) : { type: 'string' };
  return object(properties, names);
}

/** The row's key: the lookup field's kind, or an object of the key's fields for a composite key. */
export function keySchema(entity: DescribedEntity): JsonSchema {
  const kinds = new Map(entity.fields.map((field) => [field.name, field]));
  const { fields } = entity.lookup;
  const column = (name: string) => {
    const field = kinds.get(name);
    return columnJsonSchema(field ? { ...field, nullable: false } : { kind: 'string' }, 'input');
  };
  if (fields.length === 1) return { ...column(fields[0]!), description: `The ${entity.name}'s ${fields[0]}.` };
  return {
    type: 'object',
    description: `The ${entity.name}'s key: ${fields.join(', ')}.`,
    properties: Object.fromEntries(fields.map((name) => [name, column(name)])),
    required: [...fields],
    additionalProperties: false,
  };
}

interface QueryParts {
  readonly properties: Record<string, JsonSchema>;
  readonly required?: readonly string[];
}

function queryOf(sources: Sources): QueryParts {
  const { entity, operation, schemas } = sources;
  const shape: QueryShape = operation.query;
  switch (shape) {
    case 'list':
      return { properties: listProperties(entity, schemas) };
    case 'item':
      return { properties: readProperties(entity) };
    case 'filter': {
      const filter = schemas.filter();
      return filter
        ? {
            properties: {
              filter: {
                ...filter,
                minProperties: 1,
                description: `The rows to change (required): it may match at most ${operation.maxAffected ?? 'batch.maxAffected'} rows.`,
              },
            },
            required: ['filter'],
          }
        : { properties: {} };
    }
    case 'aggregate': {
      // The list's filter, search and row view, beside the aggregate's own arguments (no select, sort or paging of rows).
      const properties = matchProperties(entity, schemas);
      const { groupBy, ...own } = aggregateArgumentsJsonSchema(operation.aggregate!);
      const count: JsonSchema = {
        type: 'boolean',
        description: 'Every group answers its row count; the parameter may be sent bare for clarity.',
      };
      return { properties: { ...(groupBy ? { groupBy } : {}), count, ...own, ...properties } };
    }
    case 'count':
      // The list's filter, search and row view alone.
      return { properties: matchProperties(entity, schemas) };
    case 'members':
      return {
        properties: {
          ids: {
            type: 'array',
            description: 'The members to remove.',
            items: { type: ['string', 'integer'] },
            minItems: 1,
          },
        },
        required: ['ids'],
      };
    case 'none':
      return { properties: {} };
  }
}

/** `field` and `-field` for each sortable field, the fields to serve and the relations to embed. */
function listProperties(entity: DescribedEntity, schemas: EntitySchemas): Record<string, JsonSchema> {
  const filter = schemas.filter();
  const properties: Record<string, JsonSchema> = {};
  if (filter) properties['filter'] = filter;
  if (!entity.pagination.ownsSort && entity.sort.fields.length > 0) {
    const keys = entity.sort.fields.flatMap((field) => [field, `-${field}`]);
    properties['sort'] = names(keys, 'Sort keys in order; a leading - sorts descending.');
  }
  Object.assign(properties, readProperties(entity));
  if (entity.search)
    properties['search'] = {
      type: 'string',
      maxLength: entity.filter.limits.maxLikePatternLength,
      description: `Text searched in ${entity.search.fields.join(', ')} (${entity.search.mode === 'words' ? 'every word must match' : 'substring'}).`,
    };
  Object.assign(properties, pagingProperties(entity.pagination));
  if (entity.softDelete) {
    properties['withDeleted'] = { type: 'boolean', description: 'Also list deleted rows.' };
    properties['onlyDeleted'] = { type: 'boolean', description: 'List only deleted rows.' };
  }
  return properties;
}

/** What chooses the rows an aggregate or a count reads: the list's filter, search and row view. */
function matchProperties(entity: DescribedEntity, schemas: EntitySchemas): Record<string, JsonSchema> {
  const list = listProperties(entity, schemas);
  const properties: Record<string, JsonSchema> = {};
  for (const key of ['filter', 'search', 'withDeleted', 'onlyDeleted']) if (list[key]) properties[key] = list[key];
  return properties;
}

function readProperties(entity: DescribedEntity): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  if (entity.select.fields.length > 0)
    properties['select'] = names(entity.select.fields, 'The fields to serve (default: every readable field).');
  const relations = entity.include.relations.map((relation) => relation.name);
  if (relations.length > 0) properties['include'] = names(relations, 'Relations to embed in each row.');
  return properties;
}

function names(values: readonly string[], description: string): JsonSchema {
  return { type: 'array', description, items: { type: 'string', enum: [...values] }, uniqueItems: true };
}

/** The strategy's own parameters (`page[number]` is the `number` of a `page` object). */
function pagingProperties(pagination: DescribedEntity['pagination']): Record<string, JsonSchema> {
  const max = pagination.maxLimit > 0 ? { maximum: pagination.maxLimit } : {};
  const size = pagination.defaultLimit > 0 ? { default: pagination.defaultLimit } : {};
  const rows = `Rows per page${pagination.defaultLimit > 0 ? ` (default ${pagination.defaultLimit}, at most ${pagination.maxLimit})` : ''}.`;
  const byName: Record<string, JsonSchema> = {
    limit: { type: 'integer', minimum: 1, ...max, ...size, description: rows },
    offset: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'Rows to skip.' },
    cursor: { type: 'string', description: 'The `meta.nextCursor` of the previous page.' },
    since: {
      type: 'string',
      description: `The \`meta.nextSince\` of the previous poll, or \`<${pagination.sinceField ?? 'value'}>|<id>\` of a known row.`,
    },
  };
  const page: Record<string, JsonSchema> = {
    number: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The page, from 1.' },
    size: { type: 'integer', minimum: 1, ...max, ...size, description: rows },
  };
  const properties: Record<string, JsonSchema> = {};
  const pageMembers: Record<string, JsonSchema> = {};
  for (const param of pagination.params) {
    const member = /^page\[(\w+)\]$/.exec(param)?.[1];
    if (member && page[member]) pageMembers[member] = page[member];
    else if (byName[param]) properties[param] = byName[param];
  }
  if (Object.keys(pageMembers).length > 0)
    properties['page'] = {
      type: 'object',
      description: 'The page to serve.',
      properties: pageMembers,
      additionalProperties: false,
    };
  return properties;
}

function headersOf(operation: OperationShapes): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  if (operation.kind === 'read' && operation.cardinality === 'one' && operation.route?.method === 'GET')
    properties['If-None-Match'] = {
      type: 'string',
      description: 'Answer 304 with no body while the row still has one of these ETags.',
    };
  if (operation.conditional?.ifMatch === 'checked')
    properties['If-Match'] = {
      type: 'string',
      description: 'Write only if the row still has this ETag; otherwise 412.',
    };
  return object(properties);
}

function bodyOf({ entity, operation, schemas, peers }: Sources): BodySchema | undefined {
  const shape: BodyShape = operation.body;
  switch (shape) {
    case 'create':
    case 'update':
    case 'patch': {
      const slot = schemas.write(shape, operation.nested === true);
      const schema = operation.items
        ? {
            type: 'array',
            description: `The ${entity.name} rows to write, all or nothing: at most ${operation.items.maxItems} a call (batch.maxItems).`,
            items: slot,
            minItems: 1,
            maxItems: operation.items.maxItems,
          }
        : slot;
      return {
        required: true,
        schema,
        ...(operation.jsonPatch ? { alternatives: { 'application/json-patch+json': JSON_PATCH_JSON_SCHEMA } } : {}),
      };
    }
    case 'custom': {
      if (!operation.inputSchema)
        return { required: false, description: `What the ${operation.id} handler takes.`, schema: { type: 'object' } };
      const { $schema: _dialect, ...schema } = operation.inputSchema;
      return { required: true, description: `What the ${operation.id} handler takes (its schema.input).`, schema };
    }
    case 'members': {
      const relation = entity.relations.find((candidate) => candidate.name === operation.relation?.name);
      const key = relation ? peers.key(relation.target) : undefined;
      const id: JsonSchema = key
        ? { oneOf: [key.schema, { type: 'object', properties: { [key.name]: key.schema }, required: [key.name] }] }
        : { type: ['string', 'integer'] };
      return {
        required: true,
        schema: {
          type: 'array',
          description: `${relation?.target ?? 'Member'} ids, or references such as { "${key?.name ?? 'id'}": 7 }.`,
          items: id,
          ...(relation?.write ? { maxItems: relation.write.maxMembers } : {}),
        },
      };
    }
    case 'none':
      return undefined;
  }
}

/** An RFC 6902 JSON Patch: the operations Svc applies to a row and its to-many relations. */
export const JSON_PATCH_JSON_SCHEMA: JsonSchema = {
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
