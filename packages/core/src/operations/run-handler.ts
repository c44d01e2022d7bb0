/**
 * Calls an operation's replacement handler (config `handler` or an `@Override` method) with `(input, context)`.
 * `context.repository` is the entity's adapter scoped to the request: `filter.apply` and soft delete in force, and for
 * writes bound to one transaction that the handler's reads and writes share.
 */
import type { OperationCall } from '../pipeline/operation-call';
import { runInTransaction } from '../pipeline/run-in-transaction';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { scopedRepository } from './scoped-repository';

import { handlerIds, primaryKeyOf, readLookupKey } from '../pipeline/stages/key-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { guardRow } from '../pipeline/stages/guard-stage';
import type { Row } from '../persistence/repository-adapter';
import type { RealtimeEventId } from '../config/svc-settings';
import type { EntityKey } from '../persistence/entity-metadata';
import { liveView } from '../pipeline/stages/load-row-stage';

/** Like the standard delete family, their replacements address a row whether it is soft-deleted or not. */
const DELETE_FAMILY: ReadonlySet<string> = new Set(['deleteOne', 'restoreOne', 'purgeOne']);

export async function runHandler(
  call: OperationCall,
  input: { key?: EntityKey; body?: unknown; query?: unknown },
): Promise<unknown> {
  // A single-row read handler runs without the pre-read, so its policy sees params and body; list and create check
  // policy earlier, and single-row writes below, on the row as locked in their transaction.
  if (call.request.id !== undefined && call.operation.reads) await checkPolicy(call, { body: input.body });
  const handlerInput = { ...handlerIds(input.key), body: input.body, query: input.query };
  const context = { ...call.context, operation: call.operation.id };
  if (call.operation.reads) {
    let wrote = false;
    const repository = scopedRepository(call, undefined, () => (wrote = true));
    try {
      return await call.operation.handler!(handlerInput, { ...context, repository });
    } finally {
      // A read handler that wrote (each write its own, committed transaction) leaves no stale cached reads behind.
      if (wrote) recordOutcome(call, {});
    }
  }
  const { before, result } = await runInTransaction(call, async (session) => {
    // A replaced single-row write still guards its row as the standard one does: read and locked in this
    // transaction (404 outside the scope), If-Match checked against it, and the policy given it.
    let row: Row | undefined;
    if (call.request.id !== undefined) {
      const view = DELETE_FAMILY.has(call.operation.id) ? 'all' : liveView(call);
      row = await guardRow(call, readLookupKey(call), session, { view, body: input.body });
    }
    const repository = scopedRepository(call, session);
    return { before: row, result: await call.operation.handler!(handlerInput, { ...context, repository }) };
  });
  recordHandledWrite(call, before, result);
  return result;
}

const EVENT_OF: Readonly<Record<string, RealtimeEventId>> = {
  createOne: 'created',
  updateOne: 'updated',
  patchOne: 'patched',
  deleteOne: 'deleted',
  purgeOne: 'deleted',
  restoreOne: 'restored',
};

/** A replaced standard write's outcome: the locked row before, and the row the handler returned after. */
function recordHandledWrite(call: OperationCall, before: Row | undefined, result: unknown): void {
  const gone = call.operation.id === 'deleteOne' || call.operation.id === 'purgeOne';
  const after = !gone && typeof result === 'object' && result !== null ? (result as Row) : undefined;
  const keyed = before ?? after;
  const hasKey = keyed !== undefined && call.entity.metadata.primaryKeys.every((field) => keyed[field] != null);
  recordOutcome(call, {
    event: EVENT_OF[call.operation.id],
    ...(hasKey ? { key: primaryKeyOf(call, keyed) } : {}),
    before: before ?? (call.operation.id === 'createOne' ? null : undefined),
    after: gone ? null : after,
  });
}
