/**
 * The controllers of the surfaces beyond REST that the module's options switch on (GraphQL, the MCP tools). They are
 * known when the module is declared, so `forRootAsync` takes the switches beside its factory.
 */
import type { Type } from '@nestjs/common';
import type { SvcSurfaceSwitches } from './svc-module-options';

/** One controller per surface switched on; each surface adds its line here. */
export function surfaceControllers(switches: SvcSurfaceSwitches): Type[] {
  const controllers: Type[] = [];
  void switches;
  return controllers;
}
