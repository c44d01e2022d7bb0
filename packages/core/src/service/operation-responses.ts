/**
 * What each operation answers, by status, as JSON Schema: the success by the answer's shape (an exhaustive switch, so
 * a new answer shape does not compile until it is written here), 304 where a read is conditional, and a problem per
 * status it can answer.
 */
import type { JsonSchema } from './json-schema';
import { listEnvelopeJsonSchema, type DescribedEntity, type EntitySchemas, type PeerSchemas } from './entity-schemas';
import type { AnswerShape, OperationShapes, ResponseDescription } from './entity-description';

/** What an operation's schemas are built from. */
export interface Sources {
  readonly entity: DescribedEntity;
  readonly operation: OperationShapes;
  readonly schemas: EntitySchemas;
  readonly peers: PeerSchemas;
}

const ETAG_HEADER = { description: 'The strong ETag of the row served.', schema: { type: 'string' } };

/** The success (by the answer's shape), 304 on a conditional read, and a problem per status it can answer. */
export function responsesOf(sources: Sources, addressed: boolean): Record<string, ResponseDescription> {
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
