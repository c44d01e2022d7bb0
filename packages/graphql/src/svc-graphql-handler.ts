/**
 * GraphQL over HTTP for any host: a `graphql-http` handler over a schema built by `buildSvcSchema`, answering GET
 * (queries only) and POST with the media types and status codes of the GraphQL-over-HTTP specification. The host
 * turns its request into graphql-http's request shape and writes the `[body, init]` it gets back.
 */
import { createHandler, type Handler, type Request as GraphqlHttpRequest } from 'graphql-http';
import type { GraphQLSchema } from 'graphql';
import type { SvcContext } from '@svc/core';
import { DocumentCache } from './document-cache';
import { DEFAULT_MAX_ROOT_FIELDS, maxRootFieldsRule } from './root-field-limit';

export interface SvcGraphqlHandlerOptions<Raw> {
  readonly schema: GraphQLSchema;
  /**
   * The context value of each request, which `buildSvcSchema`'s resolvers hand to the engine (by default as it is).
   * @default `{ request: raw }`: the host's own request, so policy sees `request.user` as over REST
   */
  readonly context?: (request: GraphqlHttpRequest<Raw, unknown>) => SvcContext | Promise<SvcContext>;
  /** How many root fields one operation may select (each runs at least one operation). @default 20 */
  readonly maxRootFields?: number;
  /** How many distinct operations are kept parsed and validated (0 turns the cache off). @default 500 */
  readonly documentCacheSize?: number;
}

/** graphql-http's handler: takes its request shape, resolves to `[body, { status, headers }]`. */
export type SvcGraphqlHandler<Raw> = Handler<Raw, unknown>;

/**
 * A GraphQL-over-HTTP handler for any host. The host passes its own request as `raw`; by default the context of
 * every operation is `{ request: raw }`. Operations selecting more than `maxRootFields` root fields are refused
 * (400) before anything runs.
 */
export function createSvcGraphqlHandler<Raw = unknown>(options: SvcGraphqlHandlerOptions<Raw>): SvcGraphqlHandler<Raw> {
  const contextOf = options.context ?? ((request: GraphqlHttpRequest<Raw, unknown>) => ({ request: request.raw }));
  const cacheSize = options.documentCacheSize ?? 500;
  const cache = cacheSize > 0 ? new DocumentCache(cacheSize) : undefined;
  return createHandler<Raw, unknown, Record<PropertyKey, unknown>>({
    schema: options.schema,
    ...(cache ? { parse: cache.parse, validate: cache.validate } : {}),
    validationRules: [maxRootFieldsRule(options.maxRootFields ?? DEFAULT_MAX_ROOT_FIELDS)],
    context: async (request) => ({ ...(await contextOf(request)) }),
  });
}
