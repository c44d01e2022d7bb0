/**
 * A custom write (`operations.<id>`, `kind: 'write'`). Addressed by an id it guards its row (the policy is given it, in
 * the transaction); without one it gives the policy the body first. The row after is read only for an operation that
 * publishes an event.
 */
import { branch, transaction } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { optionalLookupStage } from '../../pipeline/stages/lookup-stage';
import { refuseIfMatchStage } from '../../pipeline/stages/precondition-stage';
import {
  customInputStage,
  customOutcomeStage,
  customWriteHandlerStage,
  customWriteOutputStage,
  readAfterStage,
} from '../custom-operations';
import type { StageListOf } from '../operation-definition';
import { policyIfAny } from './flow-parts';
import { embedDefaults } from '../read-operations';

export const customWriteStages: StageListOf = (entity, op) => {
  const after = op.custom?.realtimeEvent ? [readAfterStage] : [];
  return [
    refuseIfMatchStage,
    optionalLookupStage,
    customInputStage,
    branch(
      'byId',
      { proves: ['lookup'] },
      (_call, state) => state.lookup !== undefined,
      [transaction(guardStage(), customWriteHandlerStage, ...after)],
      [...policyIfAny(op, 'body'), transaction(customWriteHandlerStage)],
    ),
    customOutcomeStage,
    customWriteOutputStage,
    ...(op.custom?.cardinality === 'many' ? [] : embedDefaults(entity)),
  ];
};
