/**
 * updateMany: `PATCH /?filter=...`, one patch body set on every live row the required filter matches inside the
 * caller's scope (at most `batch.maxAffected`), each row locked and passed by the policy, in one transaction. The
 * policy is first asked once with the patch and no row, before anything is matched: a caller it refuses gets the
 * same 403 whether or not any row matches, so the answer never tells it which rows exist.
 */
import { transaction } from '../../pipeline/stage';
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import { patchInputStage } from '../write-operations';
import { patchFieldsInConflict, withConflictsNamed } from '../batch-conflicts';
import {
  batchFilterStage,
  batchOutcomeStage,
  batchOutputStage,
  matchRowsStage,
  updateRowsStage,
} from '../batch-writes';
import { defineOperation, notReplaceable } from '../operation-definition';
import { policyIfAny } from './flow-parts';

export const updateMany = defineOperation({
  id: 'updateMany',
  kind: 'write',
  cardinality: 'many',
  route: { method: 'PATCH', path: '', status: 200 },
  takes: { id: false, body: 'patch', query: 'filter' },
  answers: 'batch',
  event: 'patched',
  conditional: { ifNoneMatch: false, ifMatch: 'refused' },
  settings: ['realtime', 'delete', 'cache', 'errors'],
  schemaParts: ['input', 'output'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  counterpart: 'patchOne',
  optIn: { path: 'batch.update', on: (config) => Boolean(config.batch?.update) },
  wording: {
    verb: 'Change many',
    summary: ({ many }) => `Change fields of the ${many} a filter matches`,
    sentence: ({ one }) =>
      `Change some fields of every ${one} row the filter matches (a filter is required); fields left out of data keep their values. All or nothing; returns the rows after.`,
  },
  hints: { readOnly: false, destructive: true, idempotent: false },
  stages: (_entity, op) => [
    refuseIfMatchStage,
    patchInputStage,
    ...policyIfAny(op, 'body'),
    batchFilterStage,
    withConflictsNamed(transaction(matchRowsStage, updateRowsStage), patchFieldsInConflict),
    batchOutcomeStage,
    batchOutputStage(200),
  ],
  replaced: notReplaceable,
});
