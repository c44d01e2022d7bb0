/**
 * The guard of every single-row write, one implementation for all of them (standard writes, the delete family,
 * relation writes, JSON Patch, replacement handlers and custom writes by :id): read the addressed row inside
 * `filter.apply` and lock it in the write's transaction (404 when it is missing or out of scope), check If-Match
 * against it (412), and give it to the policy (403).
 */
import type { EntityKey } from '../../persistence/entity-metadata';
import type { RowView } from '../../persistence/query-ast';
import type { AdapterSession, Row } from '../../persistence/repository-adapter';
import type { OperationCall } from '../operation-call';
import { liveView, loadRow } from '../load-row';
import { checkPolicy } from './policy-stage';
import { checkIfMatch } from './precondition-stage';
import { stateOf } from './output-stage';
import { stage } from '../stage';
import { primaryKeyOf } from './lookup-stage';

export interface GuardOptions {
  /** Which rows the write may address. @default the live rows (all when soft delete is off) */
  readonly view?: RowView;
  /** What the policy gets as `body`. */
  readonly body?: unknown;
}

/** The addressed row, locked, after If-Match and policy. */
export async function guardRow(
  call: OperationCall,
  lookup: EntityKey,
  session: AdapterSession,
  options: GuardOptions = {},
): Promise<Row> {
  const row = await loadRow(call, lookup, { view: options.view ?? liveView(call), lock: true, session });
  checkIfMatch(call, stateOf(call, row));
  await checkPolicy(call, { entity: row, body: options.body });
  return row;
}

/**
 * guard: inside the transaction, the addressed row (`state.lookup`) locked, If-Match checked against it and the policy
 * given it with `state.body`; the row becomes `state.before` and its primary key `state.key`.
 */
export function guardStage(options: { view?: RowView } = {}) {
  return stage(
    'guard',
    { phase: 'guard', needs: ['lookup', 'session'], gives: ['before', 'key'] },
    async (call, state) => {
      const row = await guardRow(call, state.lookup, state.session, { view: options.view, body: state.body });
      state.before = row;
      state.key = primaryKeyOf(call, row);
    },
  );
}
