/**
 * Calls an operation's replacement handler (config `handler` or an `@Override` method) with `(input, context)`.
 * `context.repository` is the entity's adapter scoped to the request: `filter.apply` and soft delete in force, and for
 * writes bound to one transaction that the handler's reads and writes share.
 */
import type { OperationCall } from '../pipeline/operation-call';
import { runInTransaction } from '../pipeline/run-in-transaction';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { scopedRepository } from './scoped-repository';
import { checkIfMatch, needsIfMatch } from '../pipeline/stages/precondition-stage';
import { readLookupKey } from '../pipeline/stages/key-stage';
import { liveView, loadRow } from '../pipeline/stages/load-row-stage';
import { projectRow } from '../schema/output-projection';

export async function runHandler(
  call: OperationCall,
  input: { id?: unknown; body?: unknown; query?: unknown },
): Promise<unknown> {
  // Single-row handlers run without the pre-read, so policy sees params and body; list and create check it earlier.
  if (call.request.id !== undefined) await checkPolicy(call, { body: input.body });
  const handlerInput = { id: input.id ?? call.request.id, body: input.body, query: input.query };
  const context = { ...call.context, operation: call.operation.id };
  if (call.operation.reads) {
    let wrote = false;
    const repository = scopedRepository(call, undefined, () => (wrote = true));
    const result = await call.operation.handler!(handlerInput, { ...context, repository });
    // A read handler that wrote (each write its own transaction) leaves no stale cached reads behind.
    if (wrote) await call.entity.resultCache.invalidate(call.entity.name);
    return result;
  }
  return runInTransaction(call, async (session) => {
    // If-Match still holds for a replaced single-row write: checked on the row as locked in this transaction.
    if (needsIfMatch(call) && call.request.id !== undefined) {
      const view =
        call.operation.id === 'restoreOne' ? 'deleted' : call.operation.id === 'purgeOne' ? 'all' : liveView(call);
      const row = await loadRow(call, readLookupKey(call), { view, lock: true, session });
      checkIfMatch(call, projectRow(row, call.entity.output));
    }
    return call.operation.handler!(handlerInput, { ...context, repository: scopedRepository(call, session) });
  });
}
