/**
 * patchOne's RFC 6902 form (`application/json-patch+json`): on an entity with a `jsonPatch` relation the document is
 * applied to the locked row; elsewhere it is refused with 415.
 */
import type { ResolvedEntity } from '../../entity/resolved-entity';
import { transaction, type Stage } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { rereadStage } from '../../pipeline/stages/reread-stage';
import { applyPatchStage, patchChangedStage, patchDocumentStage, takesJsonPatch } from '../json-patch';
import { refuseJsonPatchStage } from '../write-operations';

export function jsonPatchForm(entity: ResolvedEntity): Stage[] {
  if (!takesJsonPatch(entity)) return [refuseJsonPatchStage];
  return [
    patchDocumentStage,
    lookupStage,
    transaction(guardStage(), applyPatchStage, rereadStage),
    patchChangedStage,
    outcomeStage,
    itemOutputStage(),
  ];
}
