/**
 * The guards of an Svc controller's REST routes, held on GraphQL and on the agent tools too. Nest runs guards per
 * route; GraphQL and the tools reach the same operations through routes of their own, which carry neither the Svc
 * controller's `@UseGuards` nor an operation's `meta.decorators`. Before either runs an operation, the gate built here
 * runs those guards, the controller's then the operation route's, with the HTTP request that carried the call and an
 * execution context naming the Svc controller and the route's handler (so `Reflector` reads the same metadata, and
 * `request.user` set by one guard is there for the next and for policy). Global guards are not run again: Nest has
 * run them on the GraphQL or MCP route itself.
 */
import { ForbiddenException, type CanActivate, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import { isObservable, lastValueFrom } from 'rxjs';
import { ConfigurationException, type SvcService } from '@svc/core';
import { type OperationGate, type SvcRoute } from '@svc/core/spi';
import { toSvc } from './problem-details.filter';
import type { SvcRegistry } from './svc-registry';
import { routeMethodName } from './route-method-name';
import { GuardExecutionContext } from './guard-execution-context';
import { GUARDS_METADATA } from './nest-metadata-keys';

interface GuardedRoute {
  readonly controller: Function;
  /** The route's handler (its metadata is what guards read), or a stand-in when the operation has no route. */
  readonly handler: Function;
  readonly guards: readonly CanActivate[];
}

/** What each HTTP request's reply is, for guards that ask the execution context for the response. */
const responses = new WeakMap<object, unknown>();

/** Records the reply of a GraphQL or MCP request, so the guards its operations run see the response too. */
export function rememberResponse(request: object, response: unknown): void {
  responses.set(request, response);
}

/**
 * The gate of every served operation, its guards resolved once (at bootstrap, after every module is up): an operation
 * without guards costs a map lookup.
 */
export function routeGuardsGate(registry: SvcRegistry, moduleRef: ModuleRef): OperationGate {
  const routes = new Map<SvcService, Map<string, GuardedRoute>>();
  for (const { controller, service } of registry.controllers()) {
    if (routes.has(service)) continue;
    const byOperation = new Map<string, GuardedRoute>();
    const classGuards = guardsOf(controller, moduleRef, controller.name);
    for (const operation of service.describe().operations) {
      const own = operation.route && routeGuardsOf(controller, operation.route, operation.id, moduleRef);
      const guards = [...classGuards, ...(own?.guards ?? [])];
      if (guards.length > 0) byOperation.set(operation.id, { controller, handler: own?.handler ?? controller, guards });
    }
    routes.set(service, byOperation);
  }
  return ({ service, operation, context }) => {
    const route = routes.get(service)?.get(operation);
    if (!route) return;
    const request = context.request as object | undefined;
    return runGuards(route, request, request ? responses.get(request) : undefined);
  };
}

/** An operation's generated route handler and the guards on it, or undefined when the controller has no such route. */
function routeGuardsOf(
  controller: Function,
  route: Pick<SvcRoute, 'method' | 'path'>,
  operation: string,
  moduleRef: ModuleRef,
): Omit<GuardedRoute, 'controller'> | undefined {
  const handler = controller.prototype[routeMethodName(route)] as Function | undefined;
  return handler && { handler, guards: guardsOf(handler, moduleRef, `${controller.name}.${operation}`) };
}

/** Runs a route's guards in order with the request and reply; a refusal (or a guard's own exception) as Svc's error. */
async function runGuards(route: GuardedRoute, request: object | undefined, response: unknown): Promise<void> {
  const execution = new GuardExecutionContext([request, response], route.controller as Type, route.handler);
  try {
    for (const guard of route.guards) {
      const answer = guard.canActivate(execution);
      const allowed = isObservable(answer) ? await lastValueFrom(answer) : await answer;
      if (!allowed) throw new ForbiddenException('Forbidden resource');
    }
  } catch (error) {
    throw toSvc(error);
  }
}

/** The guards `@UseGuards` put on a controller class or a route handler, as instances. */
function guardsOf(target: Function, moduleRef: ModuleRef, where: string): CanActivate[] {
  const entries = (Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? [];
  return entries.map((entry) => {
    if (typeof entry !== 'function') return entry as CanActivate;
    try {
      return moduleRef.get(entry as Type<CanActivate>, { strict: false });
    } catch (error) {
      throw new ConfigurationException({
        path: 'guards',
        message:
          `the guard ${entry.name} of ${where} could not be resolved for GraphQL and the agent tools ` +
          `(${error instanceof Error ? error.message : String(error)}). Make it a provider of the controller's module.`,
      });
    }
  });
}
