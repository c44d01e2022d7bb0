/** The read-back of a write: the row as the database now holds it, inside the caller's scope. */
import { ForbiddenException, NotFoundException } from '../../errors/svc-exception';
import type { EntityKey } from '../../persistence/entity-metadata';
import type { AdapterSession, Row } from '../../persistence/repository-adapter';
import type { OperationCall } from '../operation-call';
import { scopeFilter } from '../load-row';
import { stage } from '../stage';
import { computedSelectFor } from '../../config/computed-fields';

/**
 * The written row as the database now holds it. Under `filter.apply` a write may not move a row out of the caller's
 * scope: that is refused with 403 and the transaction rolls back.
 */
export async function rereadInScope(
  call: OperationCall,
  key: EntityKey,
  session: AdapterSession | undefined,
  written?: Row,
): Promise<Row> {
  const scope = await scopeFilter(call);
  // A written row lacks the computed fields, which only a read computes.
  if (written && !scope && call.entity.computed.length === 0) return written;
  const computed = computedSelectFor(call.entity, call.context);
  const row = await call.entity.adapter.findOne({ key, where: scope, view: 'all', session, computed });
  if (row) return row;
  if (!scope) throw new NotFoundException(call.entity.name, call.request.id);
  throw outsideScope(call);
}

/** 403: a write would move a row out of the caller's `filter.apply` scope; its transaction rolls back. */
export function outsideScope(call: OperationCall): ForbiddenException {
  return new ForbiddenException(
    call.operation.id,
    call.entity.name,
    `The written ${call.entity.name} would fall outside your scope (filter.apply), so nothing was written. Keep the scoped fields within your scope.`,
  );
}

/**
 * reread: `state.row` becomes the written row as the database holds it, inside the caller's scope; the row the write
 * returned stands for it when no scope must be checked.
 */
export const rereadStage = stage('reread', { phase: 'reread', needs: ['key'], gives: ['row'] }, async (call, state) => {
  state.row = await rereadInScope(call, state.key, state.session, state.row ?? undefined);
});
