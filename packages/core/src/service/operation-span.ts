/**
 * Tracing: every operation runs in a span of its own, through the OpenTelemetry API, named `<Entity>.<operation>`
 * (`Book.findMany`), with the surface that called it, its outcome (`ok` or the problem code), its status, how many
 * rows it answered or wrote and how many SQL statements it sent. The span is the active one while the operation runs,
 * so what the database driver's own instrumentation records nests below it, and the span nests below the request's
 * (the HTTP server span an SDK records).
 *
 * With no SDK registered the API hands out a span that records nothing, and nothing else is done: no attributes, no
 * context and no statement count. `tracing: false` (SvcOptions) skips even asking for it.
 */
import { context, createContextKey, ROOT_CONTEXT, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { SvcException } from '../errors/svc-exception';
import type { ExecuteResponse } from '../pipeline/operation-call';

/** One tracer for the library, as the API asks of instrumented libraries (named by package, not by app). */
const tracer = trace.getTracer('@svc/core');

/** Where the running operation's statement count lives in the active context, for the adapter to add to. */
const STATEMENTS = createContextKey('@svc/core statements');

interface StatementTally {
  count: number;
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
  const tally = context.active().getValue(STATEMENTS) as StatementTally | undefined;
  if (tally) tally.count++;
}

/**
 * Runs `start` outside any operation: what it starts (the delivery of a write's events to subscribers) is not part of
 * the operation's trace or its statement count.
 */
export function outsideOperations(start: () => void): void {
  context.with(ROOT_CONTEXT, start);
}

/** Runs `run` in the operation's span and records how it ended; the span ends when the operation does. */
export async function inOperationSpan(names: SpanNames, run: () => Promise<ExecuteResponse>): Promise<ExecuteResponse> {
  const span = tracer.startSpan(`${names.entity}.${names.operation}`);
  if (!span.isRecording()) {
    // No SDK, or a sampler that dropped the trace: the parent's context already carries that decision below.
    span.end();
    return run();
  }
  span.setAttributes({ 'svc.entity': names.entity, 'svc.operation': names.operation, 'svc.surface': names.surface });
  const tally: StatementTally = { count: 0 };
  const active = trace.setSpan(context.active(), span).setValue(STATEMENTS, tally);
  try {
    const response = await context.with(active, run);
    span.setAttributes({ 'svc.outcome': 'ok', 'svc.status': response.status, 'svc.rows': rowsOf(response) });
    return response;
  } catch (error) {
    span.setAttributes(failureOf(error));
    if (!(error instanceof SvcException) || error.status >= 500) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof SvcException ? error.code : undefined });
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
function failureOf(error: unknown): Attributes {
  if (error instanceof SvcException) return { 'svc.outcome': error.code, 'svc.status': error.status };
  return { 'svc.outcome': 'SVC_INTERNAL', 'svc.status': 500 };
}
