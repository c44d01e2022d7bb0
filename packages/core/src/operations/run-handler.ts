/** Calls an operation's replacement handler with `(input, context)`; the context carries the entity's adapter. */
import type { OperationCall } from '../pipeline/operation-call';

export async function runHandler(
  call: OperationCall,
  input: { id?: unknown; body?: unknown; query?: unknown },
): Promise<unknown> {
  const context = { ...call.context, repository: call.entity.adapter };
  return call.operation.handler!({ id: input.id ?? call.request.id, body: input.body, query: input.query }, context);
}
