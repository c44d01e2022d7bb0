/**
 * The controllers of the surfaces beyond REST that the module's options switch on (GraphQL, the MCP tools). They are
 * known when the module is declared, so `forRootAsync` takes the switches beside its factory.
 */
import type { Type } from '@nestjs/common';
import type { SvcSurfaceSwitches } from './svc-module-options';
import { graphqlSettingsOf, svcGraphqlController } from './graphql/svc-graphql.controller';
import { svcMcpController } from './mcp/svc-mcp.controller';
import { hideFromOpenApi } from './openapi/apply-openapi';
import { markSurface, type SvcSurfaceKind } from './surface-errors';
import { useProblemDetailsFilter } from './problem-details.filter';

/** One controller per surface switched on; each surface adds its line here. */
export function surfaceControllers(switches: SvcSurfaceSwitches): Type[] {
  const controllers: Type[] = [];
  if (switches.graphql) controllers.push(surface(svcGraphqlController(graphqlSettingsOf(switches.graphql)), 'graphql'));
  if (switches.mcp) controllers.push(surface(svcMcpController(switches.mcp === true ? {} : switches.mcp), 'mcp'));
  // Not in the OpenAPI document: each serves every method on one path, and describes itself.
  for (const controller of controllers) hideFromOpenApi(controller);
  return controllers;
}

/** The controller, marked with the protocol its errors answer in. */
function surface(controller: Type, kind: SvcSurfaceKind): Type {
  markSurface(controller, kind);
  useProblemDetailsFilter(controller);
  return controller;
}
