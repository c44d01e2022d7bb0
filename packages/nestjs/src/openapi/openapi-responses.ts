/**
 * The responses of one operation: its success (the item with its `ETag`, the list envelope, or no content), 304 on
 * conditional reads, and a problem-details response (application/problem+json) per status it can answer.
 */
import type { EntityDescription, OperationDescription } from '@svc/core';
import { aggregateResultJsonSchema } from '@svc/core/spi';
import type { DocumentSchemas } from './openapi-components';
import { listEnvelopeSchema, rowSchema, type DescriptionLookup, type JsonSchema } from './openapi-schemas';

/** One OpenAPI response object. */
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, { readonly description: string; readonly schema: JsonSchema }>;
  readonly content?: Record<string, { readonly schema: JsonSchema }>;
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
export function problemStatusesOf(operation: OperationDescription, path: string): number[] {
  const statuses = new Set<number>([400, 403, 500, 503]);
  if (path.includes(':')) statuses.add(404);
  if (operation.kind === 'write') {
    statuses.add(409).add(412);
    if (operation.body !== 'none') statuses.add(413).add(415).add(422);
  }
  return [...statuses].sort((a, b) => a - b);
}

const ETAG_HEADER = { description: 'The strong ETag of the row served.', schema: { type: 'string' } };

/** Every response of an operation, keyed by status. */
export function responsesOf(
  description: EntityDescription,
  operation: OperationDescription,
  path: string,
  lookup: DescriptionLookup,
  schemas: DocumentSchemas,
  owner: string,
): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  const status = String(operation.successStatus);
  const bodiless = operation.successStatus === 204 || operation.answers === 'none';
  if (bodiless) {
    responses[status] = { description: 'Done; no content.' };
  } else if (operation.relation) {
    responses[status] = relationResponse(description, operation, lookup, schemas, owner);
  } else if (operation.aggregate) {
    responses[status] = {
      description: 'One page of groups.',
      content: { 'application/json': { schema: aggregateResultJsonSchema(operation.aggregate) } },
    };
  } else if (operation.answers === 'batch') {
    Object.assign(responses, batchResponses(description, operation, schemas, owner));
  } else if (operation.cardinality === 'many') {
    const list = schemas.list(description, owner);
    responses[status] = {
      description: 'One page.',
      content: { 'application/json': { schema: list } },
    };
  } else {
    const item = schemas.item(description, owner);
    responses[status] = {
      description: `The ${description.name}${operation.kind === 'write' ? ', as stored' : ''}.`,
      headers: { ETag: ETAG_HEADER },
      content: { 'application/json': { schema: item } },
    };
    // A custom operation whose handler returns nothing answers 204.
    if (!operation.standard && operation.successStatus !== 204)
      responses['204'] = { description: 'The handler returned no result.' };
  }
  if (operation.kind === 'read' && operation.cardinality === 'one' && !bodiless) {
    responses['304'] = {
      description: 'Not modified: the If-None-Match ETag still matches.',
      headers: { ETag: ETAG_HEADER },
    };
  }
  for (const problem of problemStatusesOf(operation, path)) {
    responses[String(problem)] = {
      description: PROBLEM_TITLES[problem] ?? 'A problem.',
      content: { 'application/problem+json': { schema: schemas.problem() } },
    };
  }
  return responses;
}

/** A batch's rows in input order (a delete's as keys); an upsert also answers 200 with its created and updated counts. */
function batchResponses(
  description: EntityDescription,
  operation: OperationDescription,
  schemas: DocumentSchemas,
  owner: string,
): Record<string, ResponseObject> {
  const keys = operation.body === 'none';
  const item = keys
    ? {
        type: 'object',
        properties: Object.fromEntries(description.lookup.fields.map((key) => [key, {}])),
        required: [...description.lookup.fields],
      }
    : schemas.item(description, owner);
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
  const content = { 'application/json': { schema } };
  const what = keys ? `The keys of the ${description.name} rows deleted.` : `The ${description.name} rows, as stored.`;
  const responses: Record<string, ResponseObject> = {
    [String(operation.successStatus)]: { description: what, content },
  };
  if (operation.items && operation.successStatus !== 200) {
    responses['200'] = { description: `${what} An upsert that updated a row answers 200.`, content };
  }
  return responses;
}

/** A relation's member list (every member, in one envelope of the target's rows), or the parent after a write. */
function relationResponse(
  description: EntityDescription,
  operation: OperationDescription,
  lookup: DescriptionLookup,
  schemas: DocumentSchemas,
  owner: string,
): ResponseObject {
  if (operation.relation!.action !== 'list') {
    return {
      description: `The ${description.name}, as stored after the change.`,
      headers: { ETag: ETAG_HEADER },
      content: { 'application/json': { schema: schemas.item(description, owner) } },
    };
  }
  const relation = description.relations.find((candidate) => candidate.name === operation.relation!.name);
  const target = relation ? lookup(relation.target) : undefined;
  const member = target ? rowSchema(target, target.output.item, () => undefined) : { type: 'object' };
  return {
    description: `Every ${operation.relation!.name} member of the ${description.name}.`,
    content: { 'application/json': { schema: listEnvelopeSchema(undefined, member) } },
  };
}
