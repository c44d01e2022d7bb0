/**
 * Generates an entity's routes on its controller class when `@Svc` decorates it (every route its config may serve),
 * and maps, when the app boots, only those the resolved entity serves.
 */
import { Req, RequestMethod, RequestMapping, Res } from '@nestjs/common';
import { SvcException, type EntityConfig, type OperationMeta, type RouteDecorator } from '@svc/core';
import { ERROR_FORMAT, routeTableOf, type SvcRoute } from '@svc/core/spi';
import {
  keepStatus,
  queryPairsOf,
  readLimitedBody,
  requestUrl,
  sendNow,
  setHeader,
  type SvcHttpRequest as Request,
  type SvcHttpResponse as Response,
} from './http-exchange';
import { ROUTE_PATH_METADATA } from './nest-metadata-keys';
import { requestIdOf, writeProblem } from './problem-response';
import { routeMethodName } from './route-method-name';
import { envelopePlanOf, unwrapBody, wrapAnswer, type EnvelopePlan } from './rest-envelope';
import { createEventsHandler, servesEvents } from './events-route';
import type { SvcRegistry } from './svc-registry';
import { SVC_REGISTRY_PROPERTY } from './svc.constants';

const METHODS = {
  GET: RequestMethod.GET,
  POST: RequestMethod.POST,
  PUT: RequestMethod.PUT,
  PATCH: RequestMethod.PATCH,
  DELETE: RequestMethod.DELETE,
};

/** A generated route method by name, and the routes it answers for (an OPTIONS method: every route of its path). */
interface GeneratedRoute {
  readonly name: string;
  readonly routes: readonly SvcRoute[];
}

/** The route methods `@Svc` generated on each controller class. */
const generatedRoutes = new WeakMap<Function, readonly GeneratedRoute[]>();

/** The route paths taken off methods an app does not serve, kept for an app that boots the class and serves them. */
const unmappedPaths = new WeakMap<Function, unknown>();

export function defineRoutes(controller: Function, config: EntityConfig): void {
  const param = config.identifier?.field ?? 'id';
  // Routes per path, for OPTIONS's Allow header.
  const byPath = new Map<string, SvcRoute[]>();
  const generated: GeneratedRoute[] = [];
  for (const route of routeTableOf(config)) {
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
    const name = routeMethodName(route);
    if (route.stream) {
      if (defineRoute(controller, name, route.path, METHODS[route.method], createEventsHandler(controller)))
        generated.push({ name, routes: [route] });
      if (route.guardedAs) decorateRoute(controller, name, decoratorsOf(config, route.guardedAs));
      continue;
    }
    const handler = createHandler(controller, route, param, () => byPath.get(route.path) ?? [route]);
    if (defineRoute(controller, name, route.path, METHODS[route.method], handler, { passthrough: true }))
      generated.push({ name, routes: [route] });
    decorateRoute(controller, name, decoratorsOf(config, route.operation));
  }
  for (const [path, routes] of byPath) {
    const name = `svcOptions_${path.replace(/\W/g, '_')}`;
    if (defineRoute(controller, name, path, RequestMethod.OPTIONS, createOptionsHandler(controller, routes)))
      generated.push({ name, routes });
  }
  generatedRoutes.set(controller, generated);
}

/**
 * Leaves mapped only the generated routes the resolved entity answers, before Nest maps the app's routes: an operation
 * that resolution leaves out (restore and purge without soft delete) and the event stream where no events are
 * streamed lose their route path, so Nest maps no route for them, and its route log, `OPTIONS` and the OpenAPI
 * document list the same routes. A route of an operation the global map disables stays mapped: it answers 405. An
 * app that boots the class again maps it afresh.
 */
export function mapServedRoutes(registry: SvcRegistry, controller: Function): void {
  const prototype = controller.prototype as Record<string, Function>;
  for (const { name, routes } of generatedRoutes.get(controller) ?? []) {
    const handler = prototype[name];
    if (typeof handler !== 'function') continue;
    if (routes.some((route) => answersAt(registry, controller, route))) {
      if (unmappedPaths.has(handler)) Reflect.defineMetadata(ROUTE_PATH_METADATA, unmappedPaths.get(handler), handler);
      unmappedPaths.delete(handler);
    } else if (Reflect.hasOwnMetadata(ROUTE_PATH_METADATA, handler)) {
      unmappedPaths.set(handler, Reflect.getOwnMetadata(ROUTE_PATH_METADATA, handler));
      Reflect.deleteMetadata(ROUTE_PATH_METADATA, handler);
    }
  }
}

/** Whether a route answers at all: its operation is resolved (on, or disabled: 405), or its event stream is served. */
function answersAt(registry: SvcRegistry, controller: Function, route: SvcRoute): boolean {
  if (route.stream) return servesEvents(registry, controller);
  return registry.engineFor(controller).entity.operations.has(route.operation);
}

/** `operations.<id>.meta.decorators`, or for a relation operation (`tags:add`) `relations.<name>.write.decorators`. */
function decoratorsOf(config: EntityConfig, operation: string): readonly RouteDecorator[] {
  const colon = operation.indexOf(':');
  if (colon !== -1) return config.relations?.[operation.slice(0, colon)]?.write?.decorators ?? [];
  const entry = (config.operations as Record<string, unknown> | undefined)?.[operation];
  return (
    (typeof entry === 'object' && entry !== null ? (entry as { meta?: OperationMeta }).meta?.decorators : []) ?? []
  );
}

/** Applies an operation's own decorators to its generated route method, as if written on the method. */
function decorateRoute(controller: Function, name: string, decorators: readonly RouteDecorator[]): void {
  for (const decorator of decorators) {
    // Anything else is refused when the module boots, naming the config path; decoration must not throw first.
    if (typeof decorator !== 'function') continue;
    const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, name)!;
    const result = decorator(controller.prototype, name, descriptor);
    if (result && typeof result === 'object') Object.defineProperty(controller.prototype, name, result);
  }
}

/** The methods the entity really serves on one path (known after boot): what OPTIONS and a 405 name in `Allow`. */
function allowedMethods(registry: SvcRegistry, controller: Function, routes: readonly SvcRoute[]): string[] {
  const engine = registry.engineFor(controller);
  const methods = new Set<string>();
  for (const route of routes) {
    const served = route.stream
      ? servesEvents(registry, controller)
      : engine.entity.operations.get(route.operation)?.state === 'on';
    if (!served) continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods];
}

/**
 * OPTIONS answers, on a path where some route answers, with the methods of the operations the entity serves there
 * (none but OPTIONS where the global map disables them all: each answers 405 naming the same).
 */
function createOptionsHandler(controller: Function, routes: readonly SvcRoute[]) {
  return async function svcOptions(this: Record<string, unknown>, request: Request, response: Response): Promise<void> {
    try {
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
      // Mapped only where a route answers; the check holds that should two apps booting one class at once mix it up.
      if (!routes.some((route) => answersAt(registry, controller, route))) {
        throw new SvcException('SVC_ROUTE_NOT_FOUND', {
          detail: `Cannot OPTIONS ${requestUrl(request)}. Check the path.`,
        });
      }
      setHeader(response, 'Allow', [...allowedMethods(registry, controller, routes), 'OPTIONS'].join(', '));
      sendNow(response, 204);
    } catch (error) {
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry | undefined;
      writeProblem(request, response, error, registry?.errorFormat(controller));
    }
  };
}

/** Defines a route method on the controller; false where a method of that name is there (it keeps its route). */
function defineRoute(
  controller: Function,
  name: string,
  path: string,
  method: RequestMethod,
  handler: (request: Request, response: Response) => Promise<unknown>,
  options: { readonly passthrough?: boolean } = {},
): boolean {
  if (Object.prototype.hasOwnProperty.call(controller.prototype, name)) return false;
  Object.defineProperty(handler, 'name', { value: name });
  Object.defineProperty(controller.prototype, name, { value: handler, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, name)!;
  Reflect.defineMetadata('design:paramtypes', [Object, Object], controller.prototype, name);
  Req()(controller.prototype, name, 0);
  // Passthrough: the route sets status and headers, and returns its body through Nest's pipeline, so the app's
  // interceptors see the result.
  Res({ passthrough: options.passthrough === true })(controller.prototype, name, 1);
  RequestMapping({ path, method })(controller.prototype, name, descriptor);
  return true;
}

function createHandler(controller: Function, route: SvcRoute, param: string, samePath: () => readonly SvcRoute[]) {
  const { operation, body: takesBody, jsonPatch: takesJsonPatch } = route;
  return async function svcRoute(
    this: Record<string, unknown>,
    request: Request,
    response: Response,
  ): Promise<unknown> {
    try {
      if (takesBody && hasBody(request) && !isJson(request) && !(takesJsonPatch && isJsonPatch(request))) {
        throw new SvcException('SVC_UNSUPPORTED_MEDIA_TYPE', { detail: 'Send the body as application/json.' });
      }
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
      const plan = envelopePlan(registry, controller, operation);
      const body = !takesBody
        ? membersOf(route, request)
        : isJsonPatch(request)
          ? await readJson(request)
          : plan?.body !== undefined && hasBody(request)
            ? unwrapBody(plan.body, request.body)
            : request.body;
      const result = await registry.engineFor(controller).execute({
        operation,
        id: request.params?.[param],
        body,
        query: route.query ? queryPairsOf(request) : undefined,
        headers: { ifMatch: header(request, 'if-match'), ifNoneMatch: header(request, 'if-none-match') },
        jsonPatch: takesJsonPatch === true && isJsonPatch(request),
        context: { request },
        surface: 'rest',
      });
      setHeader(response, 'X-Request-Id', requestIdOf(request));
      for (const [name, value] of Object.entries(result.headers)) setHeader(response, name, value);
      if (result.resourceId !== undefined) setHeader(response, 'Location', locationOf(request, result.resourceId));
      keepStatus(response, result.status);
      // Svc has answered the conditional headers itself; Express must not turn its answer into a 304 of its own.
      delete request.headers['if-none-match'];
      delete request.headers['if-modified-since'];
      if (result.body === undefined || result.status === 204 || result.status === 304) return undefined;
      setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
      return plan ? wrapAnswer(plan, result.body) : result.body;
    } catch (error) {
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry | undefined;
      if (registry && error instanceof SvcException) ownedByEntity(registry, controller, error);
      // RFC 9110: a 405 names the methods the resource does take.
      if (error instanceof SvcException && error.code === 'SVC_OPERATION_DISABLED' && registry)
        setHeader(response, 'Allow', [...allowedMethods(registry, controller, samePath()), 'OPTIONS'].join(', '));
      // Through Nest's pipeline: the app's interceptors see the error, and Svc's filter answers it as problem+json.
      throw error;
    }
  };
}

/**
 * An error the route raised itself (a body outside its envelope, a media type it does not take) is the entity's, as
 * an operation's is: it names the entity and answers in the entity's `errors.format`.
 */
function ownedByEntity(registry: SvcRegistry, controller: Function, error: SvcException): void {
  error.entity ??= registry.engineFor(controller).entity.name;
  if (Object.prototype.hasOwnProperty.call(error, ERROR_FORMAT)) return;
  const format = registry.errorFormat(controller);
  if (format) Object.defineProperty(error, ERROR_FORMAT, { value: format });
}

/** Each controller's envelope plans by operation id, from its description (built once, on the first request). */
const envelopePlans = new WeakMap<Function, ReadonlyMap<string, EnvelopePlan>>();

/** What `envelope` does to the bodies of `operation` on this controller's routes; undefined: nothing. */
function envelopePlan(registry: SvcRegistry, controller: Function, operation: string): EnvelopePlan | undefined {
  let plans = envelopePlans.get(controller);
  if (!plans) {
    const envelope = registry.engineFor(controller).entity.envelope;
    const described = envelope ? registry.serviceOf(controller).describe().operations : [];
    plans = new Map(
      described.flatMap((entry) => {
        const plan = envelopePlanOf(envelope, entry);
        return plan ? [[entry.id, plan] as const] : [];
      }),
    );
    envelopePlans.set(controller, plans);
  }
  return plans.get(operation);
}

/** A request that carries a body at all (a bodiless POST to a custom operation needs no Content-Type). */
function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJsonPatch(request: Request): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^application\/json-patch\+json\s*(;|$)/i.test(type);
}

/** The JSON body of a media type Express's JSON parser leaves alone (`application/json-patch+json`). */
async function readJson(request: Request): Promise<unknown> {
  const parsed = request.body;
  if (parsed !== undefined && parsed !== null && !(typeof parsed === 'object' && Object.keys(parsed).length === 0))
    return parsed;
  const body = await readLimitedBody(
    request,
    'The JSON Patch is over 100 kB, the limit of every JSON body. Split it into several patches.',
  );
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new SvcException('SVC_MALFORMED_REQUEST', { detail: 'The JSON Patch is not valid JSON.' });
  }
}

/** The member ids of a relation removal, from `?ids=1,2` or `/:memberId`. */
function membersOf(route: SvcRoute, request: Request): unknown {
  if (route.members === 'param') return [request.params?.['memberId']];
  if (route.members !== 'query') return undefined;
  const ids = request.query?.['ids'];
  const text = Array.isArray(ids) ? ids.join(',') : typeof ids === 'string' ? ids : '';
  if (text === '') throw new SvcException('SVC_VALIDATION_FAILED', { detail: 'Name the members to remove: ?ids=1,2.' });
  return text.split(',');
}

function isJson(request: Request): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type);
}

function header(request: Request, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function locationOf(request: Request, id: string): string {
  const path = requestUrl(request).split('?')[0]!.replace(/\/+$/, '');
  return `${path}/${encodeURIComponent(id)}`;
}
