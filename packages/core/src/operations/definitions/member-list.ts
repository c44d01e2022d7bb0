/** A relation's member list (`GET /:id/<relation>` of a `resource` relation): the members of a row the caller may see. */
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { loadStage } from '../read-operations';
import { membersOutputStage, refuseQueryStage } from '../relation-writes';
import type { StageListOf } from '../operation-definition';
import { policyIfAny } from './flow-parts';

export const memberListStages: StageListOf = (_entity, op) => [
  lookupStage,
  refuseQueryStage,
  loadStage,
  ...policyIfAny(op, 'row'),
  membersOutputStage,
];
