/** Generates the standard routes on a controller class when `@Svc` decorates it. */
import { Req, RequestMethod, RequestMapping, Res } from '@nestjs/common';
import {
  parseQueryString,
  STANDARD_OPERATION_IDS,
  STANDARD_ROUTES,
  SvcException,
  type EntityConfig,
  type StandardOperationId,
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
const READ_OPERATIONS: ReadonlySet<StandardOperationId> = new Set(['findMany', 'findOne']);
const BODY_OPERATIONS: ReadonlySet<StandardOperationId> = new Set(['createOne', 'updateOne', 'patchOne']);

/** Operations that get a route: every one named on in the entity's `operations` map, else all eight. */
function routedOperations(config: EntityConfig): StandardOperationId[] {
  if (config.operations === undefined) return [...STANDARD_OPERATION_IDS];
  return STANDARD_OPERATION_IDS.filter((id) => {
    const value = config.operations?.[id];
    return value !== undefined && value !== false;
  });
}

/** Specific paths first (`:id/restore` before `:id`), so no route shadows another. */
function bySpecificity(a: StandardOperationId, b: StandardOperationId): number {
  return STANDARD_ROUTES[b].path.split('/').length - STANDARD_ROUTES[a].path.split('/').length;
}

export function defineRoutes(controller: Function, config: EntityConfig): void {
  const param = config.identifier?.field ?? 'id';
  // Operations per path, for OPTIONS's Allow header.
  const byPath = new Map<string, StandardOperationId[]>();
  for (const id of routedOperations(config).sort(bySpecificity)) {
    const route = STANDARD_ROUTES[id];
    const path = route.path.replace(':id', `:${param}`);
    byPath.set(path, [...(byPath.get(path) ?? []), id]);
    defineRoute(
      controller,
      `svc${id[0]!.toUpperCase()}${id.slice(1)}`,
      path,
      METHODS[route.method],
      createHandler(controller, id, param),
    );
  }
  for (const [path, operations] of byPath) {
    const name = `svcOptions_${path.replace(/\W/g, '_')}`;
    defineRoute(controller, name, path, RequestMethod.OPTIONS, createOptionsHandler(controller, operations));
  }
}

/** OPTIONS answers with the methods of the operations the entity really serves on that path (known after boot). */
function createOptionsHandler(controller: Function, operations: readonly StandardOperationId[]) {
  return async function svcOptions(this: Record<string, unknown>, request: Request, response: Response): Promise<void> {
    try {
      const served = (this[SVC_REGISTRY_PROPERTY] as SvcRegistry).engineFor(controller).entity.operations;
      const methods = new Set<string>();
      for (const id of operations) {
        if (!served.has(id)) continue;
        methods.add(STANDARD_ROUTES[id].method);
        if (STANDARD_ROUTES[id].method === 'GET') methods.add('HEAD');
      }
      if (methods.size === 0) {
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

function createHandler(controller: Function, operation: StandardOperationId, param: string) {
  const takesBody = BODY_OPERATIONS.has(operation);
  return async function svcRoute(this: Record<string, unknown>, request: Request, response: Response): Promise<void> {
    try {
      if (takesBody && !isJson(request)) {
        throw new SvcException('SVC_UNSUPPORTED_MEDIA_TYPE', { detail: 'Send the body as application/json.' });
      }
      const registry = this[SVC_REGISTRY_PROPERTY] as SvcRegistry;
      const url = request.originalUrl ?? request.url;
      const queryStart = url.indexOf('?');
      const result = await registry.engineFor(controller).execute({
        operation,
        id: request.params?.[param],
        body: takesBody ? request.body : undefined,
        query: READ_OPERATIONS.has(operation)
          ? parseQueryString(queryStart === -1 ? '' : url.slice(queryStart + 1))
          : undefined,
        headers: { ifMatch: header(request, 'if-match'), ifNoneMatch: header(request, 'if-none-match') },
        context: { request },
      });
      response.status(result.status);
      for (const [name, value] of Object.entries(result.headers)) response.setHeader(name, value);
      if (result.resourceId !== undefined) response.setHeader('Location', locationOf(request, result.resourceId));
      // Written directly: Express's res.json would run its own freshness check and answer 304s Svc did not decide.
      if (result.body === undefined || result.status === 204 || result.status === 304) response.end();
      else response.setHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify(result.body));
    } catch (error) {
      writeProblem(request, response, error);
    }
  };
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
