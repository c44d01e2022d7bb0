/** A relation's member write (replace, add or remove members of a to-many relation), on the guarded row. */
import { transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { outcomeStage } from '../../pipeline/stages/outcome-stage';
import { itemOutputStage } from '../../pipeline/stages/output-stage';
import { rereadStage } from '../../pipeline/stages/reread-stage';
import { applyMembersStage, memberIdsStage } from '../relation-writes';
import type { StageListOf } from '../operation-definition';

export const memberWriteStages: StageListOf = () => [
  lookupStage,
  memberIdsStage,
  transaction(guardStage(), applyMembersStage, rereadStage),
  outcomeStage,
  itemOutputStage(),
];
