/**
 * The realtime subscribe route (`GET /<collection>/events`, served when an SSE transport is registered): a
 * `text/event-stream` of the entity's events, narrowed by `id` or by a filter in the list grammar.
 */
import { pluralOf } from '@svc/core/spi';
import { filterParameters, type ParameterContext, type ParameterObject } from './openapi-parameters';
import type { ResponseObject } from './openapi-responses';

/** The OpenAPI pieces of the events route. */
export function eventsOperation(context: ParameterContext): {
  readonly operationId: string;
  readonly summary: string;
  readonly parameters: ParameterObject[];
  readonly responses: Record<string, ResponseObject>;
} {
  const { description, schemas, owner } = context;
  const problem = (text: string): ResponseObject => ({
    description: text,
    content: { 'application/problem+json': { schema: schemas.problem(description, owner) } },
  });
  return {
    operationId: `stream${description.name}Events`,
    summary: `Stream ${pluralOf(description.name)} events (Server-Sent Events)`,
    parameters: [
      {
        name: 'id',
        in: 'query',
        required: false,
        description: 'Only the events of this row.',
        schema: { type: 'string' },
      },
      ...filterParameters(context),
      {
        name: 'lastEventId',
        in: 'query',
        required: false,
        description: 'Resume after this event id (for clients that cannot send Last-Event-ID).',
        schema: { type: 'string' },
      },
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'Resume after this event id.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description: `Events as they happen (${(description.realtime?.events ?? []).join(', ')}), each with an \`id:\` to resume from.`,
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '400': problem('The filter is invalid (SVC_QUERY_INVALID).'),
      '403': problem('The policy refused the subscription (SVC_FORBIDDEN).'),
    },
  };
}
