/**
 * The realtime subscription route, `GET /<collection>/events`: checked like a list read before the stream opens
 * (bad filter 400, policy 403, problem+json through Nest's filter), then handed to the SSE transport, which owns the
 * connection from there. Where the entity publishes no events, the path is what it was before: a `findOne` of `events`.
 */
import { EVENTS_PATH, SvcException } from '@svc/core';
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

/** The findOne route's own guards per controller, resolved at the first fallback (the app is up by then). */
const findOneGuards = new WeakMap<Function, (request: object, response: unknown) => Promise<void>>();

function findOneGuardsOf(registry: SvcRegistry, controller: Function) {
  let guards = findOneGuards.get(controller);
  if (!guards) {
    const findOne = registry
      .serviceOf(controller)
      .describe()
      .operations.find((operation) => operation.id === 'findOne');
    guards = findOne?.route
      ? ownRouteGuards(controller, findOne.route, 'findOne', registry.moduleRef)
      : async () => undefined;
    findOneGuards.set(controller, guards);
  }
  return guards;
}

/**
 * @param param the name of the findOne route's key parameter (`id`, or the entity's identifier field), which the
 *   fallback fills with `events`, as the findOne route would have read it from the path
 */
export function createEventsHandler(
  controller: Function,
  findOne: RouteHandler | undefined,
  param: string,
): RouteHandler {
  return async function svcEvents(this: Record<string, unknown>, request, response): Promise<void> {
    const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
    const transport = registry.sse;
    if (!transport || !servesEvents(registry, controller)) {
      if (!findOne) throw new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `Cannot GET ${requestUrl(request)}.` });
      // Not a subscription here: the row whose id is `events`, answered as the findOne route answers it, behind the
      // findOne route's own guards (this route carries findMany's).
      await findOneGuardsOf(registry, controller)(request, response);
      (request as { params?: Record<string, string | undefined> }).params = { ...request.params, [param]: EVENTS_PATH };
      const body = await findOne.call(this, request, response);
      const status = (response as { statusCode?: number }).statusCode ?? 200;
      sendNow(response, status, body === undefined ? undefined : JSON.stringify(body));
      return;
    }
    const pairs = queryPairsOf(request);
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
