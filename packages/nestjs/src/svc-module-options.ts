/** What `SvcModule.forRoot` takes: Svc's options, plus how the module fits into the app's own error handling. */
import type { SvcOptions } from '@svc/core';

/**
 * The surfaces beyond REST, switched on when the module is declared (each adds its own controller). Each surface adds
 * its key here: `graphql`, `mcp`.
 */
export interface SvcSurfaceSwitches {
  /** GraphQL over HTTP at `/graphql` (or `path`). @default false */
  readonly graphql?: boolean | { readonly path?: string };
  /** The MCP agent tools over Streamable HTTP at `/mcp` (or `path`). @default false */
  readonly mcp?: boolean | { readonly path?: string; readonly name?: string; readonly version?: string };
}

export interface SvcModuleOptions extends SvcOptions, SvcSurfaceSwitches {
  /**
   * Which errors answer as `application/problem+json`: `'svc'` for Svc's routes only (the app's other routes keep
   * Nest's own error format), `'all'` for every route of the app. @default 'svc'
   */
  readonly problemDetails?: 'svc' | 'all';
}

/** The options `createSvc` takes: the module's own keys left out. */
export function svcOptionsOf(options: SvcModuleOptions): SvcOptions {
  const { problemDetails: _problemDetails, graphql: _graphql, mcp: _mcp, ...svc } = options;
  return svc;
}
