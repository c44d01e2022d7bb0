/**
 * deleteMany: `DELETE /?filter=...`, every live row the required filter matches inside the caller's scope (at most
 * `batch.maxAffected`), soft or hard as deleteOne, each row locked and passed by the policy, in one transaction. The
 * policy is first asked once with no row, as findMany is, before anything is matched: a caller it refuses gets the
 * same 403 whether or not any row matches, so the answer never tells it which rows exist.
 */
import { transaction } from '../../pipeline/stage';
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import {
  batchFilterStage,
  batchOutcomeStage,
  batchOutputStage,
  deleteRowsStage,
  matchRowsStage,
} from '../batch-writes';
import { defineOperation, notReplaceable } from '../operation-definition';
import { policyIfAny } from './flow-parts';

export const deleteMany = defineOperation({
  id: 'deleteMany',
  kind: 'write',
  cardinality: 'many',
  route: { method: 'DELETE', path: '', status: 200 },
  takes: { id: false, body: 'none', query: 'filter' },
  answers: 'batch',
  event: 'deleted',
  conditional: { ifNoneMatch: false, ifMatch: 'refused' },
  settings: ['realtime', 'delete', 'cache', 'errors'],
  schemaParts: [],
  needsSoftDelete: false,
  deleteMarker: 'sets',
  counterpart: 'deleteOne',
  optIn: { path: 'batch.delete', on: (config) => Boolean(config.batch?.delete) },
  wording: {
    verb: 'Delete many',
    done: 'deleted',
    summary: ({ many }) => `Delete the ${many} a filter matches`,
    sentence: ({ one, softDelete }) =>
      `Delete every ${one} row the filter matches (a filter is required)${softDelete ? ' (a soft delete: restore brings each back)' : ', permanently'}. All or nothing; returns their keys.`,
  },
  hints: { readOnly: false, destructive: true, idempotent: true },
  stages: (_entity, op) => [
    refuseIfMatchStage,
    ...policyIfAny(op, 'nothing'),
    batchFilterStage,
    transaction(matchRowsStage, deleteRowsStage),
    batchOutcomeStage,
    batchOutputStage(200),
  ],
  replaced: notReplaceable,
});
