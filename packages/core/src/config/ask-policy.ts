/**
 * The one way the policy is asked: with the operation, the row (where there is one), the route's params, the body and
 * the caller's context. Only `true` allows; an operation without a policy allows every caller.
 */
import type { PolicyFunction } from './entity-config';
import type { SvcContext } from './svc-context';

export interface PolicyQuestion {
  readonly operation: string;
  readonly entity?: Record<string, unknown>;
  readonly params?: Record<string, unknown>;
  readonly body?: unknown;
  readonly context: SvcContext;
}

export async function askPolicy(policy: PolicyFunction | undefined, question: PolicyQuestion): Promise<boolean> {
  if (!policy) return true;
  const { operation, entity, params = {}, body, context } = question;
  return (await policy({ operation, entity, params, body, context })) === true;
}
