/**
 * GraphQL over HTTP for any host: a `graphql-http` handler over a schema built by `buildSvcSchema`, answering GET
 * (queries only) and POST with the media types and status codes of the GraphQL-over-HTTP specification. The host
 * turns its request into graphql-http's request shape and writes the `[body, init]` it gets back.
 */
import { createHandler, type Handler, type Request as GraphqlHttpRequest } from 'graphql-http';
import { parse, type GraphQLError, type GraphQLSchema } from 'graphql';
import { ConfigurationException, QueryInvalidException, type SvcContext } from '@svc/core';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '@svc/core/spi';
import { toGraphqlError } from './graphql-errors';
import { DocumentCache } from './document-cache';
import {
  DEFAULT_MAX_DOCUMENT_DEPTH,
  MAX_CONFIGURABLE_DOCUMENT_DEPTH,
  nestsTooDeep,
  selectionDepth,
} from './document-depth';
import { DEFAULT_MAX_ROOT_FIELDS, maxRootFieldsRule } from './root-field-limit';
import { DEFAULT_MAX_ALIASES, DEFAULT_MAX_FIELDS, maxAliasesRule, maxFieldsRule } from './operation-field-limit';
import { maxCostRule } from './operation-cost';
import { plannedExecute } from './planned-execution';
import { errorlessAnswer } from './answer-body';

export interface SvcGraphqlHandlerOptions<Raw> {
  readonly schema: GraphQLSchema;
  /**
   * The context value of each request, which `buildSvcSchema`'s resolvers hand to the engine (by default as it is).
   * @default `{ request: raw }`: the host's own request, so policy sees `request.user` as over REST
   */
  readonly context?: (request: GraphqlHttpRequest<Raw, unknown>) => SvcContext | Promise<SvcContext>;
  /** How many root fields one operation may select (each runs at least one operation). @default 20 */
  readonly maxRootFields?: number;
  /**
   * How many fields one operation may select with its fragments expanded (aliases and introspection fields count).
   * @default 1000
   */
  readonly maxFields?: number;
  /**
   * How many fields one operation may give an alias (other than the field's own name), fragments expanded.
   * @default 20
   */
  readonly maxAliases?: number;
  /**
   * How many values one operation's answer may hold, estimated before it runs: each field once per row of every
   * list it is in (a page holds its limit, a to-many relation `listSize` rows).
   * @default 100000, or twice the cost of the schema's full introspection query when that is more
   */
  readonly maxCost?: number;
  /** The rows a to-many relation is estimated to hold in `maxCost`. @default 10 */
  readonly listSize?: number;
  /**
   * How deep a document may nest: its braces, brackets and parentheses, and its selections with fragment spreads
   * followed (each spread a level). Counted before anything recursive reads the document; deeper values belong in
   * variables, which may nest as deep as a body. At most 1000. @default 100
   */
  readonly maxDepth?: number;
  /** How many distinct operations are kept parsed and validated (0 turns the cache off). @default 500 */
  readonly documentCacheSize?: number;
}

/** graphql-http's handler: takes its request shape, resolves to `[body, { status, headers }]`. */
export type SvcGraphqlHandler<Raw> = Handler<Raw, unknown>;

/**
 * A GraphQL-over-HTTP handler for any host. The host passes its own request as `raw`; by default the context of
 * every operation is `{ request: raw }`. Operations selecting more than `maxRootFields` root fields, more than
 * `maxFields` fields or `maxAliases` aliases with their fragments expanded, or whose answer could hold more than
 * `maxCost` values, are refused (400) before anything runs.
 */
export function createSvcGraphqlHandler<Raw = unknown>(options: SvcGraphqlHandlerOptions<Raw>): SvcGraphqlHandler<Raw> {
  requireLimits(options);
  const contextOf = options.context ?? ((request: GraphqlHttpRequest<Raw, unknown>) => ({ request: request.raw }));
  const cacheSize = options.documentCacheSize ?? 500;
  const boundedParse = parseWithin(options.maxDepth ?? DEFAULT_MAX_DOCUMENT_DEPTH);
  const cache = cacheSize > 0 ? new DocumentCache(cacheSize, boundedParse) : undefined;
  return createHandler<Raw, unknown, Record<PropertyKey, unknown>>({
    schema: options.schema,
    // graphql-js reads a document and coerces variables recursively: what nests past the bounds is refused by a count
    // made first, with a request error naming it (document-depth.ts).
    parse: cache?.parse ?? boundedParse,
    onSubscribe: (_request, params) =>
      nestsDeeperThan(params.variables, MAX_VARIABLES_DEPTH)
        ? [tooDeep('variables', `The variables nest objects or arrays more than ${MAX_INPUT_DEPTH} levels deep.`)]
        : undefined,
    ...(cache ? { validate: cache.validate } : {}),
    // Svc's queries run from a plan of their selections; anything else through graphql-js (planned-execution.ts).
    execute: plannedExecute,
    validationRules: [
      maxRootFieldsRule(options.maxRootFields ?? DEFAULT_MAX_ROOT_FIELDS),
      maxFieldsRule(options.maxFields ?? DEFAULT_MAX_FIELDS),
      maxAliasesRule(options.maxAliases ?? DEFAULT_MAX_ALIASES),
      maxCostRule({ maxCost: options.maxCost, listSize: options.listSize }),
    ],
    context: async (request) => ({ ...(await contextOf(request)) }),
    // An answer without errors is encoded without graphql-http's replacer (answer-body.ts).
    onOperation: (request, _args, result) => errorlessAnswer(request, result),
  });
}

/** The bounds a handler takes, each a whole number of at least `least` when it is given. */
const LIMITS = {
  maxRootFields: 1,
  maxFields: 1,
  maxAliases: 0,
  maxCost: 1,
  listSize: 1,
  documentCacheSize: 0,
  maxDepth: 1,
} as const satisfies Partial<Record<keyof SvcGraphqlHandlerOptions<unknown>, number>>;

/** A bound that is not a whole number in range would weaken or break every request: refused when the app starts. */
function requireLimits(options: Partial<Record<keyof typeof LIMITS, unknown>>): void {
  for (const [name, least] of Object.entries(LIMITS)) {
    const value = options[name as keyof typeof LIMITS];
    if (value === undefined) continue;
    const most = name === 'maxDepth' ? MAX_CONFIGURABLE_DOCUMENT_DEPTH : Number.MAX_SAFE_INTEGER;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least || value > most) {
      const range = most === Number.MAX_SAFE_INTEGER ? `of at least ${least}` : `from ${least} to ${most}`;
      throw new ConfigurationException({
        path: `graphql.${name}`,
        message: `must be a whole number ${range}, not ${JSON.stringify(value)}.`,
      });
    }
  }
}

/** The variables object is level 1; each variable may nest as deep as the engine's highest input limit. */
const MAX_VARIABLES_DEPTH = MAX_INPUT_DEPTH + 1;

/** graphql's `parse`, refusing first a text, then a document, that nests deeper than `maxDepth`. */
function parseWithin(maxDepth: number): typeof parse {
  const refusal = () =>
    tooDeep(
      'query',
      `The document nests more than ${maxDepth} levels deep (braces, brackets and parentheses, or selections with ` +
        'their fragment spreads followed); the limit is maxDepth. Flatten it, or pass deep values as variables.',
    );
  return (source, parseOptions) => {
    if (nestsTooDeep(source, maxDepth)) throw refusal();
    const document = parse(source, parseOptions);
    if (selectionDepth(document, maxDepth) > maxDepth) throw refusal();
    return document;
  };
}

function tooDeep(param: string, detail: string): GraphQLError {
  return toGraphqlError(new QueryInvalidException([{ param, code: 'too_deep', detail }]));
}
