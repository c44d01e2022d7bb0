/**
 * The realtime subscription route, `GET /<collection>/events`: checked like a list read before the stream opens
 * (bad filter 400, policy 403, problem+json through Nest's filter), then handed to the SSE transport, which owns the
 * connection from there. It is mapped only where the entity's events are streamed; elsewhere the path is the read by
 * id's, of the row whose id is `events`.
 */
import { SvcException } from '@svc/core';
import {
  queryPairsOf,
  requestStream,
  requestUrl,
  takeOver,
  type SvcHttpRequest,
  type SvcHttpResponse,
} from './http-exchange';
import type { SvcRegistry } from './svc-registry';
import { SVC_REGISTRY_PROPERTY } from './svc.constants';

type RouteHandler = (
  this: Record<string, unknown>,
  request: SvcHttpRequest,
  response: SvcHttpResponse,
) => Promise<unknown>;

/** True when the entity's events are served as a stream here: realtime on and an SSE transport registered. */
export function servesEvents(registry: SvcRegistry, controller: Function): boolean {
  return registry.sse !== undefined && registry.serviceOf(controller).describe().realtime !== undefined;
}

export function createEventsHandler(controller: Function): RouteHandler {
  return async function svcEvents(this: Record<string, unknown>, request, response): Promise<void> {
    const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
    const transport = registry.sse;
    // Mapped only where events are streamed; the check holds that should two apps booting one class at once mix it up.
    if (!transport || !servesEvents(registry, controller)) {
      throw new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `Cannot GET ${requestUrl(request)}. Check the path.` });
    }
    // `access_token` (RFC 6750, section 2.3) is how a browser's EventSource, which cannot send headers, hands the
    // app's guard a bearer token: the guard has read it by now, and it is no part of the subscription's query.
    const pairs = queryPairsOf(request).filter(([key]) => key !== 'access_token');
    const fromQuery = pairs.find(([key]) => key === 'lastEventId')?.[1];
    const header = request.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? fromQuery;
    const subscription = await registry.serviceOf(controller).subscribe({ query: pairs, context: { request } });
    if (request.method === 'HEAD') {
      // The stream's headers, and no stream.
      transport.head(takeOver(response));
      return;
    }
    transport.stream({
      subscription,
      request: requestStream(request),
      response: takeOver(response),
      ...(lastEventId !== undefined && lastEventId !== '' ? { lastEventId } : {}),
    });
  };
}
