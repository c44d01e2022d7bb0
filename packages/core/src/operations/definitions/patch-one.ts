/**
 * patchOne: `PATCH /:id`, a change of the fields sent in the patch slot; the others keep their values. An RFC 6902
 * document is its other form (`json-patch-form.ts`).
 */
import { embedDefaults } from '../read-operations';
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { withArticle } from '../../config/operation-facts';
import { handledOutcomeStage, rowHandlerStage } from '../run-handler';
import { patchInput, patchInputStage, updateAloneStage } from '../write-operations';
import { defineOperation } from '../operation-definition';
import { guardedUpdate, leanOr } from './flow-parts';
import { jsonPatchForm } from './json-patch-form';

export const patchOne = defineOperation({
  id: 'patchOne',
  kind: 'write',
  cardinality: 'one',
  route: { method: 'PATCH', path: ':id', status: 200 },
  takes: { id: true, body: 'patch', query: 'none', nested: true },
  answers: 'item',
  event: 'patched',
  conditional: { ifNoneMatch: false, ifMatch: 'checked' },
  settings: ['realtime', 'cache', 'errors'],
  schemaParts: ['input', 'output'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  wording: {
    verb: 'Change',
    summary: ({ one }) => `Change fields of ${withArticle(one)}`,
    sentence: ({ one, key }) =>
      `Change some fields of the ${one} with ${key} id; fields left out of data keep their values.`,
  },
  hints: { readOnly: false, destructive: true, idempotent: false },
  stages: (entity, op) => [
    patchInput({ nested: entity.nested.size > 0 }),
    lookupStage,
    leanOr(entity, op.policy ? undefined : [updateAloneStage], guardedUpdate(entity)),
    outcomeStage,
    itemOutputStage(),
    ...embedDefaults(entity),
  ],
  replaced: () => [
    patchInputStage,
    lookupStage,
    transaction(guardStage(), rowHandlerStage),
    handledOutcomeStage,
    itemOutputStage(),
  ],
  jsonPatch: jsonPatchForm,
});
