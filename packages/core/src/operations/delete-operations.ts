/** deleteOne, restoreOne and purgeOne, each in one transaction with its lock, checks and write. */
import { AlreadyDeletedException, NotDeletedException } from '../errors/svc-exception';

import type { ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import { primaryKeyOf, readLookupKey } from '../pipeline/stages/key-stage';
import { loadRow, softDeletes } from '../pipeline/stages/load-row-stage';
import { emptyResponse, itemResponse } from '../pipeline/stages/output-stage';

import { runInTransaction } from '../pipeline/run-in-transaction';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import { runHandler } from './run-handler';
import { guardRow } from '../pipeline/stages/guard-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';

export async function deleteOne(call: OperationCall): Promise<ExecuteResponse> {
  const lookup = readLookupKey(call);
  if (call.operation.handler) return (await runHandler(call, { key: lookup }), emptyResponse());
  const before = await runInTransaction(call, async (session) => {
    const row = await lockedRow(call, session);
    const key = primaryKeyOf(call, row);
    if (!softDeletes(call)) await call.entity.adapter.remove(key, { session });
    else if (isDeleted(call, row)) throw new AlreadyDeletedException(call.entity.name, call.request.id);
    else await call.entity.adapter.softDelete(key, { session });
    return row;
  });
  recordOutcome(call, { event: 'deleted', key: primaryKeyOf(call, before), before, after: null });
  return emptyResponse();
}

export async function restoreOne(call: OperationCall): Promise<ExecuteResponse> {
  const lookup = readLookupKey(call);
  if (call.operation.handler) return itemResponse(call, (await runHandler(call, { key: lookup })) as Row);
  const { before, row } = await runInTransaction(call, async (session) => {
    const current = await lockedRow(call, session);
    if (!isDeleted(call, current)) throw new NotDeletedException(call.entity.name, call.request.id);
    const key = primaryKeyOf(call, current);
    await call.entity.adapter.restore(key, { session });
    return { before: current, row: await loadRow(call, key, { view: 'all', session }) };
  });
  recordOutcome(call, { event: 'restored', key: primaryKeyOf(call, row), before, after: row });
  return itemResponse(call, row);
}

export async function purgeOne(call: OperationCall): Promise<ExecuteResponse> {
  const lookup = readLookupKey(call);
  if (call.operation.handler) return (await runHandler(call, { key: lookup }), emptyResponse());
  const before = await runInTransaction(call, async (session) => {
    const row = await lockedRow(call, session);
    if (softDeletes(call) && !isDeleted(call, row)) throw new NotDeletedException(call.entity.name, call.request.id);
    await call.entity.adapter.remove(primaryKeyOf(call, row), { session });
    return row;
  });
  recordOutcome(call, { event: 'deleted', key: primaryKeyOf(call, before), before, after: null });
  return emptyResponse();
}

/** The addressed row whether deleted or not, locked, after If-Match and policy. */
async function lockedRow(call: OperationCall, session: AdapterSession): Promise<Row> {
  return guardRow(call, readLookupKey(call), session, { view: 'all' });
}

function isDeleted(call: OperationCall, row: Row): boolean {
  const marker = call.entity.metadata.deleteMarker;
  return marker !== undefined && row[marker] !== null && row[marker] !== undefined;
}
