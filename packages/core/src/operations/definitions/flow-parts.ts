/** The parts several stage lists share, each present only where the configuration calls for it. */
import type { ResolvedEntity, ResolvedOperation } from '../../entity/resolved-entity';
import { branch, transaction, type Stage } from '../../pipeline/stage';
import { guardStage } from '../../pipeline/stages/guard-stage';
import { policyStage, type PolicyInput } from '../../pipeline/stages/policy-stage';
import { queryGateStage } from '../../pipeline/stages/query-stage';
import { referencesStage } from '../../pipeline/stages/reference-stage';
import { rereadStage } from '../../pipeline/stages/reread-stage';
import { updateStage, writesAlone } from '../write-operations';
import { nestedToManyStage, nestedToOneStage } from '../nested-writes';

/** The policy stage, when the operation has a policy at all. */
export function policyIfAny(operation: ResolvedOperation, input: PolicyInput): Stage[] {
  return operation.policy ? [policyStage(input)] : [];
}

/** The query gate, when the operation has one. */
export function queryGateIfAny(operation: ResolvedOperation): Stage[] {
  return operation.queryValidator ? [queryGateStage] : [];
}

/** The guarded update of updateOne and patchOne: lock and check the row, check references, write, read back. */
export function guardedUpdate(entity: ResolvedEntity): Stage {
  return transaction(guardStage(), referencesStage, ...nestedAround(entity, updateStage), rereadStage);
}

/** The write, between the nested rows it references and those that reference it, where the entity nests writes. */
export function nestedAround(entity: ResolvedEntity, write: Stage): Stage[] {
  return entity.nested.size > 0 ? [nestedToOneStage, write, nestedToManyStage] : [write];
}

/**
 * The one-statement write (`lean`) where the adapter returns the rows it writes (`returns`: the inserted ones suffice
 * for a create) and nothing needs guarding for this call
 * (see `writesAlone`), else the guarded transaction. Where the configuration rules the lean write out, only the
 * transaction is listed.
 */
export function leanOr(
  entity: ResolvedEntity,
  lean: Stage[] | undefined,
  guarded: Stage,
  returns: 'inserted' | 'written' = 'written',
): Stage {
  const { returnsWrittenRows, returnsInsertedRows } = entity.adapter;
  const returned = returns === 'inserted' ? returnsWrittenRows || returnsInsertedRows : returnsWrittenRows;
  // A written row lacks the computed fields: an entity with some is read back, in the guarded write.
  if (!lean || !returned || entity.computed.length > 0) return guarded;
  return branch('lean', { needs: ['values'] }, writesAlone, lean, [guarded]);
}
