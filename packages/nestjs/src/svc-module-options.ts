/** What `SvcModule.forRoot` takes: Svc's options, plus how the module fits into the app's own error handling. */
import type { SvcOptions } from '@svc/core';

/**
 * The surfaces beyond REST, switched on when the module is declared (each adds its own controller). Each surface adds
 * its key here: `graphql`, `mcp`.
 */
export interface SvcSurfaceSwitches {
  /**
   * GraphQL over HTTP at `/graphql` (or `path`); `exclude` leaves entities out of the schema by name (an entity
   * paged by cursor or since must be left out). @default false
   */
  readonly graphql?: boolean | SvcGraphqlSwitch;
  /** The MCP agent tools over Streamable HTTP at `/mcp` (or `path`); needs `@svc/mcp` installed. @default false */
  readonly mcp?: boolean | SvcMcpSwitch;
}

/** `graphql: { ... }`: where GraphQL is served, what it leaves out, and how much one operation may ask for. */
export interface SvcGraphqlSwitch {
  /** @default 'graphql' */
  readonly path?: string;
  /** Entities left out of the schema, by name. @default [] */
  readonly exclude?: readonly string[];
  /** Root fields one operation may select (each runs at least one operation). @default 20 */
  readonly maxRootFields?: number;
  /** Fields one operation may select with its fragments expanded (aliases and introspection count). @default 1000 */
  readonly maxFields?: number;
  /** Fields one operation may give an alias, with its fragments expanded. @default 20 */
  readonly maxAliases?: number;
  /**
   * Values one operation's answer may hold, estimated before it runs: each field once per row of every list it is in
   * (a page holds its limit, a to-many relation `listSize` rows).
   * @default 100000, or twice the cost of the schema's full introspection query when that is more
   */
  readonly maxCost?: number;
  /** Rows a to-many relation is estimated to hold in `maxCost`. @default 10 */
  readonly listSize?: number;
  /**
   * Levels a document may nest (braces, brackets and parentheses, and selections with fragment spreads followed),
   * counted before it is parsed; variables may nest as deep as a body. At most 1000. @default 100
   */
  readonly maxDepth?: number;
}

/** `mcp: { ... }`: where the agent tools are served and what they leave out. */
export interface SvcMcpSwitch {
  /** @default 'mcp' */
  readonly path?: string;
  /** The server name clients see. @default 'svc' */
  readonly name?: string;
  /** The server version clients see. @default '0.1.0' */
  readonly version?: string;
  /** Host names the `Host` header may name (DNS-rebinding guard). @default ['localhost', '127.0.0.1', '[::1]'] */
  readonly allowedHosts?: readonly string[];
  /** Host names a browser `Origin` may name; requests without one pass. @default ['localhost', '127.0.0.1', '[::1]'] */
  readonly allowedOrigins?: readonly string[];
  /** Entity names left out of the tools (entities paged by cursor or since must be). @default [] */
  readonly exclude?: readonly string[];
  /**
   * Serve the read tools only (find, aggregate, count, `svc_describe`); a write tool called by name is refused with 405
   * SVC_OPERATION_DISABLED, writing nothing. @default false
   */
  readonly readOnly?: boolean;
  /**
   * `'entity'`: a tool per entity and operation (`book_find_many`). `'compact'`: a tool per operation (`find_many`,
   * `patch_one`, ...) that takes the entity as its `entity` argument, so `tools/list` does not grow a tool set per
   * entity; `svc_describe` stays. @default 'entity'
   */
  readonly tools?: 'entity' | 'compact';
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
