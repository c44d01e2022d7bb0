/**
 * Resolves an operation's stage list once per operation at bootstrap: a standard operation's from its definition
 * (`definitions/`, through the registry), a custom or relation operation's from its family's list, each with the
 * engine's own ends (the success status, the after-commit step, the output check). Choices that depend on the caller
 * or the request stay in the list as a `branch`.
 */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { Stage } from '../pipeline/stage';
import { afterCommitStage } from '../pipeline/stages/after-commit-stage';
import { assertOutputStage, successStatusStage } from '../pipeline/stages/output-stage';
import { customReadStages } from './definitions/custom-read';
import { customWriteStages } from './definitions/custom-write';
import { memberListStages } from './definitions/member-list';
import { memberWriteStages } from './definitions/member-write';
import { definitionOf } from './operation-registry';

/** An operation's resolved stages; `jsonPatch` is the list of its RFC 6902 form, where it has one. */
export interface OperationFlow {
  readonly stages: readonly Stage[];
  readonly jsonPatch?: readonly Stage[];
}

/** The flow of one operation of one entity, with the engine's own ends: success status, after-commit, output check. */
export function resolveFlow(entity: ResolvedEntity, operation: ResolvedOperation): OperationFlow {
  const definition = definitionOf(operation.id);
  const jsonPatch = definition?.jsonPatch?.(entity);
  return {
    stages: withEnds(operation, ownStages(entity, operation)),
    ...(jsonPatch ? { jsonPatch: withEnds(operation, jsonPatch) } : {}),
  };
}

function withEnds(operation: ResolvedOperation, stages: readonly Stage[]): Stage[] {
  const status = operation.route?.successStatus;
  return [
    ...stages,
    ...(status !== undefined ? [successStatusStage(status)] : []),
    afterCommitStage,
    ...(operation.outputValidator ? [assertOutputStage(operation.outputValidator)] : []),
  ];
}

function ownStages(entity: ResolvedEntity, operation: ResolvedOperation): Stage[] {
  if (operation.custom) {
    return operation.custom.kind === 'read'
      ? customReadStages(entity, operation)
      : customWriteStages(entity, operation);
  }
  if (operation.relationWrite) {
    return operation.relationWrite.action === 'list'
      ? memberListStages(entity, operation)
      : memberWriteStages(entity, operation);
  }
  const definition = definitionOf(operation.id);
  if (!definition) throw new Error(`${operation.id} is neither a standard, a custom nor a relation operation.`);
  return operation.handler ? definition.replaced(entity, operation) : definition.stages(entity, operation);
}
