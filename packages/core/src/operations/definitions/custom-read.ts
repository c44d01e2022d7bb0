/** A custom read (`operations.<id>` with `kind: 'read'`): its handler with the list query the caller may run. */
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import { optionalLookupStage } from '../../pipeline/stages/lookup-stage';
import { customReadHandlerStage, customReadOutputStage } from '../custom-operations';
import { listPlanStage } from '../read-operations';
import type { StageListOf } from '../operation-definition';
import { policyIfAny, queryGateIfAny } from './flow-parts';

export const customReadStages: StageListOf = (_entity, op) => [
  refuseIfMatchStage,
  optionalLookupStage,
  ...policyIfAny(op, 'nothing'),
  ...queryGateIfAny(op),
  listPlanStage,
  customReadHandlerStage,
  customReadOutputStage,
];
