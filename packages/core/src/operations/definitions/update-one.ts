/** updateOne: `PUT /:id`, a replace of the update slot's fields (one left out is reset), with `set` forced over it. */
import { embedDefaults } from '../read-operations';
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { withArticle } from '../../config/operation-facts';
import { handledOutcomeStage, rowHandlerStage } from '../run-handler';
import { inputWithSetStage, updateAloneStage } from '../write-operations';
import { defineOperation } from '../operation-definition';
import { guardedUpdate, leanOr } from './flow-parts';

export const updateOne = defineOperation({
  id: 'updateOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'PUT', path: ':id', status: 200 },
  takes: { id: true, body: 'update', query: 'none', nested: true },
  answers: 'item',
  event: 'updated',
  conditional: { ifNoneMatch: false, ifMatch: 'checked' },
  settings: ['realtime', 'cache', 'errors'],
  schemaParts: ['input', 'output'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  wording: {
    verb: 'Replace',
    summary: ({ one }) => `Replace ${withArticle(one)}`,
    sentence: ({ one, key }) =>
      `Replace the writable fields of the ${one} with ${key} id: a field left out of data is reset to its default.`,
  },
  hints: { readOnly: false, destructive: true, idempotent: true },
  stages: (entity, op) => [
    inputWithSetStage('update', { nested: entity.nested.size > 0 }),
    lookupStage,
    leanOr(entity, op.policy ? undefined : [updateAloneStage], guardedUpdate(entity)),
    outcomeStage,
    itemOutputStage(),
    ...embedDefaults(entity),
  ],
  replaced: () => [
    inputWithSetStage('update'),
    lookupStage,
    transaction(guardStage(), rowHandlerStage),
    handledOutcomeStage,
    itemOutputStage(),
  ],
});
