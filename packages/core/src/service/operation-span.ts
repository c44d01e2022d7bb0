/**
 * Tracing: every operation runs in a span of its own, through the OpenTelemetry API, named `<Entity>.<operation>`
 * (`Book.findMany`), with the surface that called it, its outcome (`ok` or the problem code), its status, how many
 * rows it answered or wrote and how many SQL statements it sent. The span is the active one while the operation runs,
 * so what the database driver's own instrumentation records nests below it, and the span nests below the request's
 * (the HTTP server span an SDK records).
 *
 * The API is an optional peer: without it installed, Svc runs untraced (no span, no context, no statement count). With
 * no SDK registered the API hands out a span that records nothing, and nothing else is done. `tracing: false`
 * (SvcOptions) skips even asking for it.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import { SvcException } from '../errors/svc-exception';
import type { ExecuteResponse } from '../pipeline/operation-call';

/** The optional peer, loaded by name so that an app without it still loads Svc. */
const OPENTELEMETRY_API = '@opentelemetry/api';

/** What tracing works with, made once: undefined when the app has no OpenTelemetry API installed. */
const tracing = tracingOf(loadOpenTelemetry());

interface Tracing {
  /** The API the app installed (shared with its SDK, whose registration it finds). */
  readonly api: typeof OpenTelemetry;
  /** One tracer for the library, as the API asks of instrumented libraries (named by package, not by app). */
  readonly tracer: OpenTelemetry.Tracer;
  /** Where the running operation's statement count lives in the active context, for the adapter to add to. */
  readonly statements: symbol;
}

function tracingOf(api: typeof OpenTelemetry | undefined): Tracing | undefined {
  if (!api) return undefined;
  return { api, tracer: api.trace.getTracer('@svc/core'), statements: api.createContextKey('@svc/core statements') };
}

interface StatementTally {
  count: number;
}

/**
 * The API, when the app has it. Only its absence is tolerated (a module-not-found error naming it, as Node and Yarn's
 * Plug'n'Play both give one); an installed copy that fails to load for another reason is thrown.
 */
function loadOpenTelemetry(): typeof OpenTelemetry | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(OPENTELEMETRY_API) as typeof OpenTelemetry;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'MODULE_NOT_FOUND' && String(message).includes(OPENTELEMETRY_API)) return undefined;
    throw error;
  }
}

/** What names a span: the entity, the operation and the surface that called it. */
export interface SpanNames {
  readonly entity: string;
  readonly operation: string;
  /** `rest`, `graphql`, `mcp`, `sse`, or `service` for a call made in code. */
  readonly surface: string;
}

/**
 * Counts one SQL statement against the operation whose span is active (an adapter calls it for each statement it
 * sends). Outside a recorded operation there is nothing to count against, and it does nothing.
 */
export function countStatement(): void {
  if (!tracing) return;
  const tally = tracing.api.context.active().getValue(tracing.statements) as StatementTally | undefined;
  if (tally) tally.count++;
}

/**
 * Runs `start` outside any operation: what it starts (the delivery of a write's events to subscribers) is not part of
 * the operation's trace or its statement count.
 */
export function outsideOperations(start: () => void): void {
  if (tracing) tracing.api.context.with(tracing.api.ROOT_CONTEXT, start);
  else start();
}

/** Runs `run` in the operation's span and records how it ended; the span ends when the operation does. */
export async function inOperationSpan(names: SpanNames, run: () => Promise<ExecuteResponse>): Promise<ExecuteResponse> {
  if (!tracing) return run();
  const { api, tracer, statements } = tracing;
  const span = tracer.startSpan(`${names.entity}.${names.operation}`);
  if (!span.isRecording()) {
    // No SDK, or a sampler that dropped the trace: the parent's context already carries that decision below.
    span.end();
    return run();
  }
  span.setAttributes({ 'svc.entity': names.entity, 'svc.operation': names.operation, 'svc.surface': names.surface });
  const tally: StatementTally = { count: 0 };
  const active = api.trace.setSpan(api.context.active(), span).setValue(statements, tally);
  try {
    const response = await api.context.with(active, run);
    span.setAttributes({ 'svc.outcome': 'ok', 'svc.status': response.status, 'svc.rows': rowsOf(response) });
    return response;
  } catch (error) {
    span.setAttributes(failureOf(error));
    if (!(error instanceof SvcException) || error.status >= 500) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        message: error instanceof SvcException ? error.code : undefined,
      });
    }
    throw error;
  } finally {
    span.setAttribute('svc.statements', tally.count);
    span.end();
  }
}

/**
 * How many rows the operation answered or wrote: the writes it committed, else the rows of a page (or of an array a
 * custom operation answers), else one for a row in the body (a read by id, a custom operation's answer), else none.
 */
function rowsOf(response: ExecuteResponse): number {
  if (response.outcomes && response.outcomes.length > 0) return response.outcomes.length;
  const body = response.body as { items?: unknown } | undefined;
  if (Array.isArray(body)) return body.length;
  if (Array.isArray(body?.items)) return body.items.length;
  return typeof body === 'object' && body !== null ? 1 : 0;
}

/** A refusal is an outcome, not an error of the span: its code and status; anything else is an internal error. */
function failureOf(error: unknown): OpenTelemetry.Attributes {
  if (error instanceof SvcException) return { 'svc.outcome': error.code, 'svc.status': error.status };
  return { 'svc.outcome': 'SVC_INTERNAL', 'svc.status': 500 };
}
