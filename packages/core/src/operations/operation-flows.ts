/**
 * Resolves an operation's stage list once per operation at bootstrap: a standard operation's from its definition
 * (`definitions/`, through the registry), a custom or relation operation's from its family's list, each with the
 * engine's own ends (the success status, the after-commit step, the output check). Choices that depend on the caller
 * or the request stay in the list as a `branch`.
 */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import { checkPhases, checkStages, ENDS, withPhase, type Stage } from '../pipeline/stage';
import { afterCommitStage } from '../pipeline/stages/after-commit-stage';
import { assertOutputStage, successStatusStage } from '../pipeline/stages/output-stage';
import { customReadStages } from './definitions/custom-read';
import { customWriteStages } from './definitions/custom-write';
import { memberListStages } from './definitions/member-list';
import { memberWriteStages } from './definitions/member-write';
import { definitionOf } from './operation-registry';
import type { OperationDefinition } from './operation-definition';

/** An operation's resolved stages; `jsonPatch` is the list of its RFC 6902 form, where it has one. */
export interface OperationFlow {
  readonly stages: readonly Stage[];
  readonly jsonPatch?: readonly Stage[];
}

/** The flow of one operation of one entity, with the engine's own ends: success status, after-commit, output check. */
export function resolveFlow(entity: ResolvedEntity, operation: ResolvedOperation): OperationFlow {
  const definition = definitionOf(operation.id);
  const jsonPatch = definition?.jsonPatch?.(entity);
  const flow = (stages: readonly Stage[], form = '') =>
    checked(entity.name, `${operation.id}${form}`, withEnds(operation, stages));
  return {
    stages: flow(ownStages(entity, operation, definition)),
    ...(jsonPatch ? { jsonPatch: flow(jsonPatch, ' (JSON Patch)') } : {}),
  };
}

/**
 * The steps every operation takes, each placed by its phase: the route's success status, the after-commit step and
 * the output check. A step for every operation (tracing, an audit) goes here.
 */
function withEnds(operation: ResolvedOperation, stages: readonly Stage[]): Stage[] {
  const status = operation.route?.successStatus;
  const steps = [
    ...(status !== undefined ? [successStatusStage(status)] : []),
    afterCommitStage,
    ...(operation.outputValidator ? [assertOutputStage(operation.outputValidator)] : []),
  ];
  return steps.reduce<Stage[]>((list, step) => withPhase(list, step), [...stages]);
}

/**
 * A list whose every stage has what it needs before it runs, whose phases keep their order, and which ends with a
 * response: else the boot stops.
 */
function checked(entity: string, operation: string, stages: Stage[]): Stage[] {
  const name = `${entity}.${operation}`;
  const gives = checkStages(name, stages);
  checkPhases({ entity, path: `operations.${operation}` }, stages);
  if (gives !== ENDS && !gives.has('response')) {
    throw new Error(`${name}: no stage of the list gives the response. End it with an output stage.`);
  }
  return stages;
}

function ownStages(
  entity: ResolvedEntity,
  operation: ResolvedOperation,
  definition: OperationDefinition | undefined,
): Stage[] {
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
  if (!definition) throw new Error(`${operation.id} is neither a standard, a custom nor a relation operation.`);
  return operation.handler ? definition.replaced(entity, operation) : definition.stages(entity, operation);
}
