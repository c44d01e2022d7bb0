/**
 * createMany: `POST /batch`, a JSON array of create bodies written in one transaction, each under createOne's rules;
 * with `batch.create.onConflict` an upsert on a unique column set the config names. Answers 201 with the rows in input
 * order (200 when an upsert updated any).
 */
import { transaction } from '../../pipeline/stage';
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import { itemsInConflict, withConflictsNamed } from '../batch-conflicts';
import { batchItemsStage, createRowsStage, itemsPolicyStage } from '../batch-create';
import { batchOutcomeStage, batchOutputStage } from '../batch-writes';
import { defineOperation, notReplaceable } from '../operation-definition';

export const createMany = defineOperation({
  id: 'createMany',
  kind: 'write',
  cardinality: 'many',
  route: { method: 'POST', path: 'batch', status: 201 },
  takes: { id: false, body: 'create', items: true, query: 'none', nested: true },
  answers: 'batch',
  event: 'created',
  conditional: { ifNoneMatch: false, ifMatch: 'refused' },
  settings: ['realtime', 'cache', 'errors'],
  schemaParts: ['input', 'output'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  counterpart: 'createOne',
  optIn: { path: 'batch.create', on: (config) => Boolean(config.batch?.create) },
  wording: {
    verb: 'Create many',
    summary: ({ many }) => `Create ${many} in one batch`,
    sentence: ({ many, one, required }) =>
      `Create several ${many} at once from a list of ${one} data (each required: ${required}); all or nothing, returns the stored rows in order.`,
  },
  hints: { readOnly: false, destructive: false, idempotent: false },
  stages: (_entity, op) => [
    refuseIfMatchStage,
    batchItemsStage,
    ...(op.policy ? [itemsPolicyStage] : []),
    withConflictsNamed(transaction(createRowsStage), itemsInConflict),
    batchOutcomeStage,
    batchOutputStage(201),
  ],
  replaced: notReplaceable,
});
