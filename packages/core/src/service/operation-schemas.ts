/**
 * What each operation takes and answers, as JSON Schema (draft 2020-12): its path parameters, its query as a
 * programmatic call passes it, its conditional headers, its body and its responses by status, in the manner of a
 * Fastify route's `schema`. Built once per operation from its shapes, each by an exhaustive switch, so a new shape
 * does not compile until it is written here; the surfaces (the agent tools, the OpenAPI document) render these
 * schemas and never classify an operation themselves.
 */
import { aggregateArgumentsJsonSchema } from './aggregate-json-schema';
import { columnJsonSchema, type JsonSchema } from './json-schema';
import { listEnvelopeJsonSchema, type DescribedEntity, type EntitySchemas } from './entity-schemas';
import type {
  AnswerShape,
  BodySchema,
  BodyShape,
  OperationDescription,
  OperationSchemas,
  QueryShape,
  ResponseDescription,
} from './entity-description';

/** What a surface asks of entities the operation's rows relate to. */
export interface PeerSchemas {
  /** An embedded row of `entity`, when Svc serves it. */
  row(entity: string): JsonSchema | undefined;
  /** The primary key of `entity` and its schema, when it has a single one. */
  key(entity: string): { readonly name: string; readonly schema: JsonSchema } | undefined;
}

/** The operation as described, before its schemas are added. */
export type OperationShapes = Omit<OperationDescription, 'schemas'>;

interface Sources {
  readonly entity: DescribedEntity;
  readonly operation: OperationShapes;
  readonly schemas: EntitySchemas;
  readonly peers: PeerSchemas;
}

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
      const slot = schemas.write(shape);
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

const ETAG_HEADER = { description: 'The strong ETag of the row served.', schema: { type: 'string' } };

/** The success (by the answer's shape), 304 on a conditional read, and a problem per status it can answer. */
function responsesOf(sources: Sources, addressed: boolean): Record<string, ResponseDescription> {
  const { operation, schemas } = sources;
  const responses: Record<string, ResponseDescription> = {};
  const status = String(operation.successStatus);
  const answers = operation.successStatus === 204 ? 'none' : operation.answers;
  Object.assign(responses, successOf(sources, answers, status));
  if (operation.kind === 'read' && operation.cardinality === 'one' && answers !== 'none')
    responses['304'] = {
      description: 'Not modified: the If-None-Match ETag still matches.',
      headers: { ETag: ETAG_HEADER },
    };
  for (const problem of problemStatusesOf(operation, addressed))
    responses[String(problem)] = {
      description: PROBLEM_TITLES[problem] ?? 'A problem.',
      schema: schemas.problem(),
      problem: true,
    };
  return responses;
}

function successOf(
  { entity, operation, schemas, peers }: Sources,
  answers: AnswerShape,
  status: string,
): Record<string, ResponseDescription> {
  switch (answers) {
    case 'item': {
      const item: ResponseDescription = {
        description: `The ${entity.name}${operation.kind === 'write' ? ', as stored' : ''}.`,
        headers: { ETag: ETAG_HEADER },
        schema: schemas.item(),
      };
      // A custom operation whose handler returns nothing answers 204.
      return operation.standard
        ? { [status]: item }
        : { [status]: item, '204': { description: 'The handler returned no result.' } };
    }
    case 'list':
      return { [status]: { description: 'One page.', schema: schemas.list() } };
    case 'none':
      return { [status]: { description: 'Done; no content.' } };
    case 'batch':
      return batchResponses(entity, operation, schemas, status);
    case 'aggregate':
      return { [status]: { description: 'One page of groups.', schema: schemas.aggregate(operation.aggregate!) } };
    case 'total':
      return {
        [status]: {
          description: `How many ${entity.name} rows match.`,
          schema: {
            type: 'object',
            properties: {
              total: { type: 'integer', minimum: 0, description: 'The rows the filter and search match.' },
            },
            required: ['total'],
            additionalProperties: false,
          },
        },
      };
    case 'members': {
      const relation = entity.relations.find((candidate) => candidate.name === operation.relation?.name);
      const member = (relation ? peers.row(relation.target) : undefined) ?? { type: 'object' };
      return {
        [status]: {
          description: `Every ${operation.relation?.name} member of the ${entity.name}.`,
          schema: listEnvelopeJsonSchema(undefined, member),
        },
      };
    }
  }
}

/** A batch's rows in input order (a delete's as keys); an upsert also answers 200 with its created and updated counts. */
function batchResponses(
  entity: DescribedEntity,
  operation: OperationShapes,
  schemas: EntitySchemas,
  status: string,
): Record<string, ResponseDescription> {
  const keys = operation.body === 'none';
  const item = keys
    ? {
        type: 'object',
        properties: Object.fromEntries(entity.lookup.fields.map((key) => [key, {}])),
        required: [...entity.lookup.fields],
      }
    : schemas.item();
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      items: { type: 'array', items: item },
      total: { type: 'integer', description: 'How many rows the batch wrote.' },
      meta: {
        type: 'object',
        description: 'An upsert: how many items created a row, and how many updated one.',
        properties: { created: { type: 'integer' }, updated: { type: 'integer' } },
      },
    },
    required: ['items', 'total'],
  };
  const what = keys ? `The keys of the ${entity.name} rows deleted.` : `The ${entity.name} rows, as stored.`;
  const responses: Record<string, ResponseDescription> = { [status]: { description: what, schema } };
  if (operation.items && status !== '200')
    responses['200'] = { description: `${what} An upsert that updated a row answers 200.`, schema };
  return responses;
}

const PROBLEM_TITLES: Readonly<Record<number, string>> = {
  400: 'The query or the body is invalid, or a batch too large (SVC_QUERY_INVALID, SVC_QUERY_UNSUPPORTED_PARAM, SVC_VALIDATION_FAILED, SVC_BATCH_TOO_LARGE).',
  403: 'The policy refused the call (SVC_FORBIDDEN).',
  404: 'No such row, or none the caller may see (SVC_NOT_FOUND).',
  409: 'A conflict with the stored rows (SVC_CONFLICT, SVC_ALREADY_DELETED, SVC_NOT_DELETED).',
  412: 'The If-Match precondition failed, or does not apply here (SVC_PRECONDITION_FAILED, SVC_PRECONDITION_UNSUPPORTED).',
  413: 'The body is too large (SVC_PAYLOAD_TOO_LARGE).',
  415: 'The body is not JSON (SVC_UNSUPPORTED_MEDIA_TYPE).',
  422: 'A referenced row does not exist (SVC_UNRESOLVED_RELATION).',
  500: 'A server failure (SVC_PERSISTENCE_ERROR, SVC_INTERNAL).',
  503: 'The database is busy or unreachable; retry (SVC_TRANSACTION_FAILED, SVC_DATABASE_UNAVAILABLE).',
};

/** The problem statuses an operation can answer. */
function problemStatusesOf(operation: OperationShapes, addressed: boolean): number[] {
  const statuses = new Set<number>([400, 403, 500, 503]);
  if (addressed) statuses.add(404);
  if (operation.kind === 'write') {
    statuses.add(409).add(412);
    if (operation.body !== 'none') statuses.add(413).add(415).add(422);
  }
  return [...statuses].sort((a, b) => a - b);
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
