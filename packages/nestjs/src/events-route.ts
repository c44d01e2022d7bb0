/**
 * The realtime subscription route, `GET /<collection>/events`: checked like a list read before the stream opens
 * (bad filter 400, policy 403, problem+json through Nest's filter), then handed to the SSE transport, which owns the
 * connection from there. Where the entity publishes no events, the path is what it was before: the read by id of the row `events`.
 */
import { SvcException } from '@svc/core';
import { EVENTS_PATH } from '@svc/core/spi';
import {
  queryPairsOf,
  requestStream,
  requestUrl,
  sendNow,
  takeOver,
  type SvcHttpRequest,
  type SvcHttpResponse,
} from './http-exchange';
import { ownRouteGuards } from './route-guards';
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

/** The read by id's own route guards per controller, resolved at the first fallback (the app is up by then). */
const fallbackGuards = new WeakMap<Function, (request: object, response: unknown) => Promise<void>>();

function fallbackGuardsOf(registry: SvcRegistry, controller: Function, operationId: string) {
  let guards = fallbackGuards.get(controller);
  if (!guards) {
    const byId = registry
      .serviceOf(controller)
      .describe()
      .operations.find((operation) => operation.id === operationId);
    guards = byId?.route
      ? ownRouteGuards(controller, byId.route, operationId, registry.moduleRef)
      : async () => undefined;
    fallbackGuards.set(controller, guards);
  }
  return guards;
}

/**
 * @param fallback the read by id's route handler and operation, which answer where the entity publishes no events
 * @param param the name of the read by id's key parameter (`id`, or the entity's identifier field), which the
 *   fallback fills with `events`, as that route would have read it from the path
 */
export function createEventsHandler(
  controller: Function,
  fallback: { readonly operation: string; readonly handler: RouteHandler } | undefined,
  param: string,
): RouteHandler {
  return async function svcEvents(this: Record<string, unknown>, request, response): Promise<void> {
    const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
    const transport = registry.sse;
    if (!transport || !servesEvents(registry, controller)) {
      if (!fallback) throw new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `Cannot GET ${requestUrl(request)}.` });
      // Not a subscription here: the row whose id is `events`, answered as the read by id answers it, behind that
      // route's own guards (this route carries the list's).
      await fallbackGuardsOf(registry, controller, fallback.operation)(request, response);
      (request as { params?: Record<string, string | undefined> }).params = { ...request.params, [param]: EVENTS_PATH };
      const body = await fallback.handler.call(this, request, response);
      const status = (response as { statusCode?: number }).statusCode ?? 200;
      sendNow(response, status, body === undefined ? undefined : JSON.stringify(body));
      return;
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
