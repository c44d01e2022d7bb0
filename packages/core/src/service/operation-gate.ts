/**
 * What a binding (GraphQL, the agent tools) asks before it runs an operation for a caller: the host framework's own
 * checks of the route that operation has over REST. The Nest binding runs that route's guards here, so a guard on an
 * Svc controller, or on one of its operations, holds on every surface and not on REST alone.
 */
import type { SvcContext } from '../config/svc-context';
import type { ExecuteRequest, ExecuteResponse } from '../pipeline/operation-call';
import type { SvcService } from './svc-service';

export interface GatedCall {
  readonly service: SvcService;
  /** The operation id (`findMany`, `createOne`, ...). */
  readonly operation: string;
  readonly context: SvcContext;
}

/** Resolves to let the call run; throws (an HTTP or Svc exception) to refuse it. */
export type OperationGate = (call: GatedCall) => void | Promise<void>;

/** One operation a surface runs for a caller: its request without the context, the caller's context, and the gate. */
export interface SurfaceCall {
  readonly service: SvcService;
  readonly request: Omit<ExecuteRequest, 'context'>;
  readonly context: SvcContext;
  readonly gate?: OperationGate;
}

/**
 * How every surface beyond REST runs an operation: the gate first (a refusal throws and nothing runs), then the
 * engine with the caller's context.
 */
export async function executeGated(call: SurfaceCall): Promise<ExecuteResponse> {
  const gated = throughGate(call);
  if (gated) await gated;
  return call.service.engine.execute({ ...call.request, context: call.context });
}

/** The same gate, then only the engine's check of the call's query (what a write's answer will be read with). */
export async function checkGated(call: SurfaceCall): Promise<void> {
  const gated = throughGate(call);
  if (gated) await gated;
  await call.service.engine.checkQuery({ ...call.request, context: call.context });
}

/**
 * The gate's answer for the call: undefined (or a value) at once when it has nothing to run for the operation, so no
 * turn of the event loop is spent on it; a promise otherwise.
 */
function throughGate({ service, request, context, gate }: SurfaceCall): void | Promise<void> {
  return gate?.({ service, operation: request.operation, context });
}
