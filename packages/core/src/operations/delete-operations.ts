/** The stages of deleteOne, restoreOne and purgeOne of their own: the write each makes on the row the guard locked. */
import { AlreadyDeletedException, NotDeletedException } from '../errors/svc-exception';
import type { OperationCall } from '../pipeline/operation-call';
import { stage } from '../pipeline/stage';
import { loadRow, softDeletes } from '../pipeline/load-row';
import type { Row } from '../persistence/repository-adapter';

/** delete: removes the row, or marks it deleted under soft delete (409 when it already is). */
export const deleteStage = stage('delete', { phase: 'act', needs: ['before', 'key'] }, async (call, state) => {
  const row = state.before;
  if (!softDeletes(call)) await call.entity.adapter.remove(state.key, { session: state.session });
  else if (isDeleted(call, row)) throw new AlreadyDeletedException(call.entity.name, call.request.id);
  else await call.entity.adapter.softDelete(state.key, { session: state.session });
  state.row = null;
});

/** restore: clears the delete marker of a soft-deleted row (409 when it is not deleted), and reads the row back. */
export const restoreStage = stage(
  'restore',
  { phase: 'act', needs: ['before', 'key'], gives: ['row'] },
  async (call, state) => {
    if (!isDeleted(call, state.before)) throw new NotDeletedException(call.entity.name, call.request.id);
    await call.entity.adapter.restore(state.key, { session: state.session });
    state.row = await loadRow(call, state.key, { view: 'all', session: state.session });
  },
);

/** purge: removes the row for good; under soft delete only a row already deleted (409 otherwise). */
export const purgeStage = stage('purge', { phase: 'act', needs: ['before', 'key'] }, async (call, state) => {
  if (softDeletes(call) && !isDeleted(call, state.before))
    throw new NotDeletedException(call.entity.name, call.request.id);
  await call.entity.adapter.remove(state.key, { session: state.session });
  state.row = null;
});

function isDeleted(call: OperationCall, row: Row): boolean {
  const marker = call.entity.metadata.deleteMarker;
  return marker !== undefined && row[marker] !== null && row[marker] !== undefined;
}
