/** deleteOne: `DELETE /:id`, a soft delete where the entity has the marker, else for good; answers 204. */
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { emptyOutputStage } from '../../pipeline/stages/output-stage';
import { withArticle } from '../../config/operation-facts';
import { deleteStage } from '../delete-operations';
import { handledOutcomeStage, handlerStage } from '../run-handler';
import { defineOperation } from '../operation-definition';

export const deleteOne = defineOperation({
  id: 'deleteOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'DELETE', path: ':id', status: 204 },
  takes: { id: true, body: 'none', query: 'none' },
  answers: 'none',
  event: 'deleted',
  conditional: { ifNoneMatch: false, ifMatch: 'checked' },
  settings: ['realtime', 'delete', 'cache', 'errors'],
  schemaParts: [],
  needsSoftDelete: false,
  deleteMarker: 'sets',
  wording: {
    verb: 'Delete',
    done: 'deleted',
    summary: ({ one }) => `Delete ${withArticle(one)}`,
    sentence: ({ one, key, softDelete }) =>
      softDelete
        ? `Delete the ${one} with ${key} id (a soft delete: restore brings it back).`
        : `Delete the ${one} with ${key} id, permanently.`,
  },
  hints: { readOnly: false, destructive: true, idempotent: true },
  stages: () => [lookupStage, transaction(guardStage({ view: 'all' }), deleteStage), outcomeStage, emptyOutputStage],
  replaced: () => [
    lookupStage,
    transaction(guardStage({ view: 'all' }), handlerStage),
    handledOutcomeStage,
    emptyOutputStage,
  ],
});
