/** restoreOne: `PATCH /:id/restore`, a soft-deleted row brought back; served only where the entity soft-deletes. */
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { restoreStage } from '../delete-operations';
import { handledOutcomeStage, rowHandlerStage } from '../run-handler';
import { defineOperation } from '../operation-definition';

export const restoreOne = defineOperation({
  id: 'restoreOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'PATCH', path: ':id/restore', status: 200 },
  takes: { id: true, body: 'none', query: 'none' },
  answers: 'item',
  event: 'restored',
  conditional: { ifNoneMatch: false, ifMatch: 'checked' },
  settings: ['realtime', 'delete', 'cache', 'errors'],
  schemaParts: ['output'],
  needsSoftDelete: true,
  deleteMarker: 'clears',
  wording: {
    verb: 'Restore',
    summary: ({ one }) => `Restore a deleted ${one}`,
    sentence: ({ one, key }) => `Restore the deleted ${one} with ${key} id.`,
  },
  hints: { readOnly: false, destructive: false, idempotent: true },
  stages: () => [lookupStage, transaction(guardStage({ view: 'all' }), restoreStage), outcomeStage, itemOutputStage()],
  replaced: () => [
    lookupStage,
    transaction(guardStage({ view: 'all' }), rowHandlerStage),
    handledOutcomeStage,
    itemOutputStage(),
  ],
});
