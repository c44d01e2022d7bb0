/** purgeOne: `DELETE /:id/purge`, a soft-deleted row removed for good; served only where the entity soft-deletes. */
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { emptyOutputStage } from '../../pipeline/stages/output-stage';
import { purgeStage } from '../delete-operations';
import { handledOutcomeStage, handlerStage } from '../run-handler';
import { defineOperation } from '../operation-definition';

export const purgeOne = defineOperation({
  id: 'purgeOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'DELETE', path: ':id/purge', status: 204 },
  takes: { id: true, body: 'none', query: 'none' },
  answers: 'none',
  event: 'deleted',
  conditional: { ifNoneMatch: false, ifMatch: 'checked' },
  settings: ['realtime', 'delete', 'cache', 'errors'],
  schemaParts: [],
  needsSoftDelete: true,
  deleteMarker: 'none',
  wording: {
    verb: 'Purge',
    done: 'purged',
    summary: ({ one }) => `Remove a deleted ${one} for good`,
    sentence: ({ one }) => `Remove a deleted ${one} permanently (delete it first).`,
  },
  hints: { readOnly: false, destructive: true, idempotent: false },
  stages: () => [lookupStage, transaction(guardStage({ view: 'all' }), purgeStage), outcomeStage, emptyOutputStage],
  replaced: () => [
    lookupStage,
    transaction(guardStage({ view: 'all' }), handlerStage),
    handledOutcomeStage,
    emptyOutputStage,
  ],
});
