/**
 * What a binding (GraphQL, the agent tools) asks before it runs an operation for a caller: the host framework's own
 * checks of the route that operation has over REST. The Nest binding runs that route's guards here, so a guard on an
 * Svc controller, or on one of its operations, holds on every surface and not on REST alone.
 */
import type { SvcContext } from '../config/svc-context';
import type { SvcService } from './svc-service';

export interface GatedCall {
  readonly service: SvcService;
  /** The operation id (`findMany`, `createOne`, ...). */
  readonly operation: string;
  readonly context: SvcContext;
}

/** Resolves to let the call run; throws (an HTTP or Svc exception) to refuse it. */
export type OperationGate = (call: GatedCall) => void | Promise<void>;
