/** Calls an operation's replacement handler with `(input, context)`; the context carries the entity's adapter. */
import type { OperationCall } from '../pipeline/operation-call';
import { checkPolicy } from '../pipeline/stages/policy-stage';

export async function runHandler(
  call: OperationCall,
  input: { id?: unknown; body?: unknown; query?: unknown },
): Promise<unknown> {
  // Single-row handlers run without the pre-read, so policy sees params and body; list and create check it earlier.
  if (call.request.id !== undefined) await checkPolicy(call, { body: input.body });
  const context = { ...call.context, repository: call.entity.adapter, operation: call.operation.id };
  return call.operation.handler!({ id: input.id ?? call.request.id, body: input.body, query: input.query }, context);
}
