/** createOne: `POST /`, one row from the create slot with what `set` forces; answers 201 with the stored row. */
import { embedDefaults } from '../read-operations';
import { transaction } from '../../pipeline/stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import { referencesStage } from '../../pipeline/stages/reference-stage';
import { rereadStage } from '../../pipeline/stages/reread-stage';
import { withArticle } from '../../config/operation-facts';
import { handledOutcomeStage, rowHandlerStage } from '../run-handler';
import { inputWithSetStage, insertAloneStage, insertStage } from '../write-operations';
import { defineOperation } from '../operation-definition';
import { leanOr, nestedAround, policyIfAny } from './flow-parts';

export const createOne = defineOperation({
  id: 'createOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'POST', path: '', status: 201 },
  takes: { id: false, body: 'create', query: 'none', nested: true },
  answers: 'item',
  event: 'created',
  conditional: { ifNoneMatch: false, ifMatch: 'refused' },
  settings: ['realtime', 'cache', 'errors'],
  schemaParts: ['input', 'output'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  wording: {
    verb: 'Create',
    summary: ({ one }) => `Create ${withArticle(one)}`,
    sentence: ({ one, required }) => `Create a ${one} from data (required: ${required}); returns the stored row.`,
  },
  hints: { readOnly: false, destructive: false, idempotent: false },
  stages: (entity, op) => [
    refuseIfMatchStage,
    inputWithSetStage('create', { nested: entity.nested.size > 0 }),
    ...policyIfAny(op, 'request body'),
    leanOr(
      entity,
      [insertAloneStage],
      transaction(referencesStage, ...nestedAround(entity, insertStage), rereadStage),
      'inserted',
    ),
    outcomeStage,
    itemOutputStage({ status: 201, location: true }),
    ...embedDefaults(entity),
  ],
  replaced: (_entity, op) => [
    refuseIfMatchStage,
    inputWithSetStage('create'),
    ...policyIfAny(op, 'request body'),
    transaction(rowHandlerStage),
    handledOutcomeStage,
    itemOutputStage({ status: 201 }),
  ],
});
