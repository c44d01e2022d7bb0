/** Generates the standard routes on a controller class when `@Svc` decorates it. */
import { Req, RequestMethod, RequestMapping, Res } from '@nestjs/common';
import {
  parseQueryString,
  STANDARD_OPERATION_IDS,
  STANDARD_ROUTES,
  SvcException,
  type CustomOperationConfig,
  type EntityConfig,
  type RouteOptions,
  type StandardOperationId,
  type SvcEngine,
} from '@svc/core';
import type { Request, Response } from 'express';
import { writeProblem } from './problem-response';
import type { SvcRegistry } from './svc-registry';
import { SVC_REGISTRY_PROPERTY } from './svc.constants';

const METHODS = {
  GET: RequestMethod.GET,
  POST: RequestMethod.POST,
  PUT: RequestMethod.PUT,
  PATCH: RequestMethod.PATCH,
  DELETE: RequestMethod.DELETE,
};
const READ_OPERATIONS: ReadonlySet<string> = new Set(['findMany', 'findOne']);
const BODY_OPERATIONS: ReadonlySet<string> = new Set(['createOne', 'updateOne', 'patchOne']);

type Method = keyof typeof METHODS;

/** One generated route: the operation behind it, its verb and path, and what it reads off the request. */
interface RouteSpec {
  readonly operation: string;
  readonly method: Method;
  readonly path: string;
  readonly body: boolean;
  readonly query: boolean;
  /** Relation removals: the member ids come from `?ids=1,2` or from the `:memberId` segment. */
  readonly members?: 'query' | 'param';
}

/**
 * The routes of an entity config, custom operations first (they are matched before the standard table, and one that
 * reproduces a standard route's shape takes it), then the standard ones, specific paths before `:id`.
 */
export function routesOf(config: EntityConfig): RouteSpec[] {
  const param = config.identifier?.field ?? 'id';
  const resolvePath = (path: string) => path.replace(/(^|\/):id(?=\/|$)/, `$1:${param}`);
  const customs: RouteSpec[] = [];
  for (const [id, entry] of Object.entries(config.operations ?? {})) {
    if ((STANDARD_OPERATION_IDS as readonly string[]).includes(id) || entry === false || entry === undefined) continue;
    const custom = (entry === true ? {} : entry) as CustomOperationConfig;
    const routes = custom.meta?.routes;
    if (custom.enabled === false || routes?.enabled === false) continue;
    const read = custom.kind === 'read';
    customs.push({
      operation: id,
      method: routes?.method ?? 'POST',
      path: resolvePath(routes?.path ?? id),
      body: !read,
      query: read,
    });
  }
  const standard = routedOperations(config)
    .filter((id) => routeOptionsOf(config, id)?.enabled !== false)
    .map((id): RouteSpec => {
      const routes = routeOptionsOf(config, id);
      return {
        operation: id,
        method: routes?.method ?? STANDARD_ROUTES[id].method,
        path: resolvePath(routes?.path ?? STANDARD_ROUTES[id].path),
        body: BODY_OPERATIONS.has(id),
        query: READ_OPERATIONS.has(id),
      };
    })
    .sort((a, b) => specificity(b.path) - specificity(a.path));
  // Among themselves, custom routes go specific first too, so a custom `:id` does not swallow a custom `short`.
  const bySpecificity = (a: RouteSpec, b: RouteSpec) => specificity(b.path) - specificity(a.path);
  return [...customs.sort(bySpecificity), ...relationRoutes(config, resolvePath), ...standard];
}

/** `relations.<name>.write`: `replace` adds PUT /:id/<name>; `resource` adds GET, POST, PUT and DELETE there. */
function relationRoutes(config: EntityConfig, resolvePath: (path: string) => string): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (const [name, entry] of Object.entries(config.relations ?? {})) {
    const strategy = entry?.write?.strategy;
    if (strategy !== 'replace' && strategy !== 'resource') continue;
    const path = resolvePath(`:id/${name}`);
    const route = (operation: string, method: Method, extra: Partial<RouteSpec> = {}): RouteSpec => ({
      operation: `${name}:${operation}`,
      method,
      path,
      body: method === 'POST' || method === 'PUT',
      query: false,
      ...extra,
    });
    out.push(route('replace', 'PUT'));
    if (strategy === 'resource') {
      out.push(
        route('remove', 'DELETE', { path: `${path}/:memberId`, members: 'param' }),
        route('list', 'GET', { query: true }),
        route('add', 'POST'),
        route('remove', 'DELETE', { members: 'query' }),
      );
    }
  }
  return out;
}

/** Deeper paths first, then fewer parameters: `:id/restore` before `:id`, and `all` before `:id`. */
function specificity(path: string): number {
  const segments = path.split('/');
  return segments.length * 100 - segments.filter((segment) => segment.startsWith(':')).length;
}

function routeOptionsOf(config: EntityConfig, id: StandardOperationId): RouteOptions | undefined {
  const entry = config.operations?.[id];
  return typeof entry === 'object' ? entry.meta?.routes : undefined;
}

/** Operations that get a route: every one named on in the entity's `operations` map, else all eight. */
function routedOperations(config: EntityConfig): StandardOperationId[] {
  if (config.operations === undefined) return [...STANDARD_OPERATION_IDS];
  return STANDARD_OPERATION_IDS.filter((id) => {
    const value = config.operations?.[id];
    return value !== undefined && value !== false;
  });
}

export function defineRoutes(controller: Function, config: EntityConfig): void {
  const param = config.identifier?.field ?? 'id';
  // Routes per path, for OPTIONS's Allow header.
  const byPath = new Map<string, RouteSpec[]>();
  for (const route of routesOf(config)) {
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
    defineRoute(
      controller,
      `svc_${route.method}_${route.path.replace(/\W/g, '_')}`,
      route.path,
      METHODS[route.method],
      createHandler(controller, route, param, () => byPath.get(route.path) ?? [route]),
    );
  }
  for (const [path, routes] of byPath) {
    const name = `svcOptions_${path.replace(/\W/g, '_')}`;
    defineRoute(controller, name, path, RequestMethod.OPTIONS, createOptionsHandler(controller, routes));
  }
}

/** The methods the entity really serves on one path (known after boot): what OPTIONS and a 405 name in `Allow`. */
function allowedMethods(engine: SvcEngine, routes: readonly RouteSpec[]): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (engine.entity.operations.get(route.operation)?.state !== 'on') continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods];
}

/** OPTIONS answers with the methods of the operations the entity really serves on that path (known after boot). */
function createOptionsHandler(controller: Function, routes: readonly RouteSpec[]) {
  return async function svcOptions(this: Record<string, unknown>, request: Request, response: Response): Promise<void> {
    try {
      const methods = allowedMethods((this[SVC_REGISTRY_PROPERTY] as SvcRegistry).engineFor(controller), routes);
      if (methods.length === 0) {
        throw new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `Cannot OPTIONS ${request.originalUrl}.` });
      }
      response.status(204).setHeader('Allow', [...methods, 'OPTIONS'].join(', '));
      response.end();
    } catch (error) {
      writeProblem(request, response, error);
    }
  };
}

function defineRoute(
  controller: Function,
  name: string,
  path: string,
  method: RequestMethod,
  handler: (request: Request, response: Response) => Promise<void>,
): void {
  if (Object.prototype.hasOwnProperty.call(controller.prototype, name)) return;
  {
    Object.defineProperty(handler, 'name', { value: name });
    Object.defineProperty(controller.prototype, name, { value: handler, writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, name)!;
    Reflect.defineMetadata('design:paramtypes', [Object, Object], controller.prototype, name);
    Req()(controller.prototype, name, 0);
    Res()(controller.prototype, name, 1);
    RequestMapping({ path, method })(controller.prototype, name, descriptor);
  }
}

function createHandler(controller: Function, route: RouteSpec, param: string, samePath: () => readonly RouteSpec[]) {
  const { operation, body: takesBody } = route;
  return async function svcRoute(this: Record<string, unknown>, request: Request, response: Response): Promise<void> {
    try {
      if (takesBody && hasBody(request) && !isJson(request) && !(operation === 'patchOne' && isJsonPatch(request))) {
        throw new SvcException('SVC_UNSUPPORTED_MEDIA_TYPE', { detail: 'Send the body as application/json.' });
      }
      const body = !takesBody
        ? membersOf(route, request)
        : isJsonPatch(request)
          ? await readJson(request)
          : request.body;
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
      const url = request.originalUrl ?? request.url;
      const queryStart = url.indexOf('?');
      const result = await registry.engineFor(controller).execute({
        operation,
        id: request.params?.[param],
        body,
        query: route.query ? parseQueryString(queryStart === -1 ? '' : url.slice(queryStart + 1)) : undefined,
        headers: { ifMatch: header(request, 'if-match'), ifNoneMatch: header(request, 'if-none-match') },
        jsonPatch: operation === 'patchOne' && isJsonPatch(request),
        context: { request },
      });
      response.status(result.status);
      for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
      if (result.resourceId !== undefined) response.setHeader('Location', locationOf(request, result.resourceId));
      // Written directly: Express's res.json would run its own freshness check and answer 304s Svc did not decide.
      if (result.body === undefined || result.status === 204 || result.status === 304) response.end();
      else response.setHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify(result.body));
    } catch (error) {
      // RFC 9110: a 405 names the methods the resource does take.
      if (error instanceof SvcException && error.code === 'SVC_OPERATION_DISABLED') {
        const engine = (this[SVC_REGISTRY_PROPERTY] as SvcRegistry | undefined)?.engineFor(controller);
        if (engine) response.setHeader('Allow', [...allowedMethods(engine, samePath()), 'OPTIONS'].join(', '));
      }
      writeProblem(request, response, error);
    }
  };
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

/** Express's own default JSON body limit (100 kB), so a JSON Patch is no larger than any other body. */
const JSON_PATCH_LIMIT_BYTES = 100 * 1024;

/** The JSON body of a media type Express's JSON parser leaves alone (`application/json-patch+json`). */
async function readJson(request: Request): Promise<unknown> {
  if (request.body !== undefined && !(typeof request.body === 'object' && Object.keys(request.body).length === 0))
    return request.body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_PATCH_LIMIT_BYTES)
      throw new SvcException('SVC_PAYLOAD_TOO_LARGE', {
        detail: 'The JSON Patch is over 100 kB, the limit of every JSON body. Split it into several patches.',
      });
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new SvcException('SVC_MALFORMED_REQUEST', { detail: 'The JSON Patch is not valid JSON.' });
  }
}

/** The member ids of a relation removal, from `?ids=1,2` or `/:memberId`. */
function membersOf(route: RouteSpec, request: Request): unknown {
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
  const path = (request.originalUrl ?? request.url).split('?')[0]!.replace(/\/+$/, '');
  return `${path}/${encodeURIComponent(id)}`;
}
