/** Records a committed write's outcome on the call, as the caller may see its rows; the after-commit step reads it. */
import type { Row } from '../../persistence/repository-adapter';
import { projectRow } from '../../schema/output-projection';
import type { OperationCall } from '../operation-call';
import { changedFields, type WriteOutcome } from '../write-outcome';
import { stage } from '../stage';

/** Records what a write did, once its transaction has committed (never for a rolled-back one). */
export function recordOutcome(
  call: OperationCall,
  outcome: Omit<WriteOutcome, 'entity' | 'operation' | 'before' | 'after' | 'changed' | 'stored'> & {
    readonly before?: Row | null;
    readonly after?: Row | null;
    readonly changed?: readonly string[];
  },
): void {
  const before = seen(call, outcome.before);
  const after = seen(call, outcome.after);
  call.outcomes.push({
    ...outcome,
    entity: call.entity.name,
    operation: call.operation.id,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    changed: outcome.changed ?? changedFields(before, after),
    stored: { before: outcome.before, after: outcome.after },
  });
}

/** A row projected to what the caller may see; null and undefined kept as they are. */
function seen(call: OperationCall, row: Row | null | undefined): Record<string, unknown> | null | undefined {
  if (row === null || row === undefined) return row;
  return projectRow(row, call.entity.output);
}

/**
 * outcome: records what the committed write did, from the flow state: `key`, `before` (null for a create), `row` as
 * the row after (null for a delete), and `changed` and `touches` when the write knows them; the event is the
 * operation's own.
 */
export const outcomeStage = stage('outcome', { phase: 'record' }, (call, state) => {
  recordOutcome(call, {
    event: call.operation.event,
    ...(state.key ? { key: state.key } : {}),
    before: state.before,
    after: state.row,
    ...(state.changed ? { changed: state.changed } : {}),
    ...(state.touches ? { touches: state.touches } : {}),
  });
  // The nested rows' own writes, now that the transaction that wrote them has committed.
  if (state.nested?.pending) call.outcomes.push(...state.nested.pending);
});
