/** One call of an operation as it moves through the stages: the request, the resolved config, the context. */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { ResolvedSettings, StandardOperationId, SvcSettings } from '../config/svc-settings';
import type { AggregateQuery, FindManyQuery } from '../config/entity-config';
import type { QueryPairs } from '../query/parse-query-string';
import type { SvcContext } from '../config/svc-context';
import type { WriteOutcome } from './write-outcome';

export interface ExecuteRequest {
  /** A standard operation id or a custom operation's id. */
  readonly operation: StandardOperationId | (string & {});
  /** The route parameter (a string over HTTP) or a typed id. */
  readonly id?: unknown;
  readonly body?: unknown;
  /** Raw query-string pairs (the wire) or a programmatic query object. */
  readonly query?: QueryPairs | FindManyQuery | AggregateQuery;
  readonly headers?: { readonly ifMatch?: string; readonly ifNoneMatch?: string };
  /** patchOne: the body is an RFC 6902 document (`application/json-patch+json`), not an object of fields. */
  readonly jsonPatch?: boolean;
  readonly context?: SvcContext;
  /**
   * The surface that made the call, as the operation's span names it: `rest`, `graphql`, `mcp`, `sse`.
   * @default 'service' (a call made in code)
   */
  readonly surface?: 'rest' | 'graphql' | 'mcp' | 'sse' | 'service' | (string & {});
  /** Per-call settings: the last link of the chain. */
  readonly settings?: SvcSettings;
}

export interface ExecuteResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly etag?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** createOne: the new row's route id, from which a binding builds `Location`. */
  readonly resourceId?: string;
  /** What the call's committed writes did (empty for reads), as the after-commit step consumed them. */
  readonly outcomes?: readonly WriteOutcome[];
}

export interface OperationCall {
  readonly entity: ResolvedEntity;
  readonly operation: ResolvedOperation;
  readonly settings: ResolvedSettings;
  readonly request: ExecuteRequest;
  readonly context: SvcContext;
  /** Filled as the call's writes commit; the engine's after-commit step consumes them. */
  readonly outcomes: WriteOutcome[];
}

/** True when ETags and conditional headers are on for this call. */
export function etagsOn(call: OperationCall): boolean {
  return call.settings.cache !== false && call.settings.cache.etag;
}

/** Surfaces that answer without HTTP validators: no ETag reaches their callers, and none comes back in If-Match. */
const SURFACES_WITHOUT_ETAGS: ReadonlySet<string> = new Set(['graphql', 'mcp']);

/**
 * True when the response is worth its ETag: ETags are on, and the call's surface sends it, or the result cache may
 * keep the response for a surface that does (its key does not name the surface).
 */
export function responseEtagOn(call: OperationCall): boolean {
  const cache = call.settings.cache;
  if (cache === false || !cache.etag) return false;
  return !SURFACES_WITHOUT_ETAGS.has(call.request.surface ?? '') || cache.ttl !== false;
}
