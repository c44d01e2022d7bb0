/**
 * What every operation does, in order, in one place: its stage list, resolved once per operation at bootstrap from
 * what the configuration alone decides (a replacement handler, a policy, a query gate, the adapter's returned rows,
 * a success status, an output validator). Choices that depend on the caller or the request stay in the list as a
 * `branch`. Each stage is a small function: the shared ones in `pipeline/stages`, an operation's own beside it here.
 */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { StandardOperationId } from '../config/svc-settings';
import { branch, transaction, type Stage } from '../pipeline/stage';
import { afterCommitStage } from '../pipeline/stages/after-commit-stage';
import { guardStage } from '../pipeline/stages/guard-stage';
import { keyStage, optionalKeyStage } from '../pipeline/stages/key-stage';
import { outcomeStage } from '../pipeline/stages/outcome-stage';
import {
  assertOutputStage,
  emptyOutputStage,
  itemOutputStage,
  notModifiedStage,
  successStatusStage,
} from '../pipeline/stages/output-stage';
import { policyStage, type PolicyInput } from '../pipeline/stages/policy-stage';
import { refuseIfMatchStage } from '../pipeline/stages/precondition-stage';
import { queryGateStage } from '../pipeline/stages/query-stage';
import { referencesStage } from '../pipeline/stages/reference-stage';
import { rereadStage } from '../pipeline/stages/reread-stage';
import { resultCacheStage } from '../pipeline/stages/result-cache-stage';
import {
  customInputStage,
  customOutcomeStage,
  customReadHandlerStage,
  customReadOutputStage,
  customWriteHandlerStage,
  customWriteOutputStage,
  readAfterStage,
} from './custom-operations';
import { deleteStage, purgeStage, restoreStage } from './delete-operations';
import { applyPatchStage, patchChangedStage, patchDocumentStage, takesJsonPatch } from './json-patch';
import {
  itemReadOutputStage,
  itemShapeStage,
  listEnvelopeStage,
  listIncludesStage,
  listPlanStage,
  listReadStage,
  loadStage,
} from './read-operations';
import { applyMembersStage, memberIdsStage, membersOutputStage, refuseQueryStage } from './relation-writes';
import { handledOutcomeStage, handlerStage } from './run-handler';
import {
  inputWithSetStage,
  insertAloneStage,
  insertStage,
  patchInputStage,
  refuseJsonPatchStage,
  updateAloneStage,
  updateStage,
  writesAlone,
} from './write-operations';

/** An operation's resolved stages; `jsonPatch` is patchOne's list for an RFC 6902 body. */
export interface OperationFlow {
  readonly stages: readonly Stage[];
  readonly jsonPatch?: readonly Stage[];
}

/** The flow of one operation of one entity, with the engine's own ends: success status, after-commit, output check. */
export function resolveFlow(entity: ResolvedEntity, operation: ResolvedOperation): OperationFlow {
  const own = ownStages(entity, operation);
  const jsonPatch = operation.id === 'patchOne' ? jsonPatchStages(entity) : undefined;
  return { stages: withEnds(operation, own), ...(jsonPatch ? { jsonPatch: withEnds(operation, jsonPatch) } : {}) };
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
  if (operation.custom) return operation.custom.kind === 'read' ? customRead(operation) : customWrite(operation);
  if (operation.relationWrite) return operation.relationWrite.action === 'list' ? memberList(operation) : memberWrite();
  const id = operation.id as StandardOperationId;
  if (operation.handler) return replaced(id, operation);
  return STANDARD[id](entity, operation);
}

/** The policy stage, when the operation has a policy at all. */
function policy(operation: ResolvedOperation, input: PolicyInput): Stage[] {
  return operation.policy ? [policyStage(input)] : [];
}

/** The query gate, when the operation has one. */
function queryGate(operation: ResolvedOperation): Stage[] {
  return operation.queryValidator ? [queryGateStage] : [];
}

const STANDARD: Readonly<Record<StandardOperationId, (entity: ResolvedEntity, op: ResolvedOperation) => Stage[]>> = {
  findMany: (_entity, op) => [
    ...policy(op, 'nothing'),
    ...queryGate(op),
    resultCacheStage([listPlanStage, listReadStage, listEnvelopeStage, listIncludesStage], { rowPolicy: false }),
  ],
  findOne: (_entity, op) => [
    keyStage,
    ...queryGate(op),
    itemShapeStage,
    resultCacheStage([loadStage, ...policy(op, 'row'), itemReadOutputStage], { rowPolicy: true }),
    notModifiedStage,
  ],
  createOne: (entity, op) => [
    refuseIfMatchStage,
    inputWithSetStage('createOne'),
    ...policy(op, 'request body'),
    leanOr(entity, [insertAloneStage], transaction(referencesStage, insertStage, rereadStage)),
    outcomeStage('created'),
    itemOutputStage({ status: 201, location: true }),
  ],
  updateOne: (entity, op) => [
    inputWithSetStage('updateOne'),
    keyStage,
    leanOr(entity, op.policy ? undefined : [updateAloneStage], guardedUpdate()),
    outcomeStage('updated'),
    itemOutputStage(),
  ],
  patchOne: (entity, op) => [
    patchInputStage,
    keyStage,
    leanOr(entity, op.policy ? undefined : [updateAloneStage], guardedUpdate()),
    outcomeStage('patched'),
    itemOutputStage(),
  ],
  deleteOne: () => [
    keyStage,
    transaction(guardStage({ view: 'all' }), deleteStage),
    outcomeStage('deleted'),
    emptyOutputStage,
  ],
  restoreOne: () => [
    keyStage,
    transaction(guardStage({ view: 'all' }), restoreStage),
    outcomeStage('restored'),
    itemOutputStage(),
  ],
  purgeOne: () => [
    keyStage,
    transaction(guardStage({ view: 'all' }), purgeStage),
    outcomeStage('deleted'),
    emptyOutputStage,
  ],
};

function guardedUpdate(): Stage {
  return transaction(guardStage(), referencesStage, updateStage, rereadStage);
}

/**
 * The one-statement write (`lean`) where the adapter returns written rows and nothing needs guarding for this call
 * (see `writesAlone`), else the guarded transaction. Where the configuration rules the lean write out, only the
 * transaction is listed.
 */
function leanOr(entity: ResolvedEntity, lean: Stage[] | undefined, guarded: Stage): Stage {
  if (!lean || !entity.adapter.returnsWrittenRows) return guarded;
  return branch('lean', writesAlone, lean, [guarded]);
}

/** patchOne with an RFC 6902 document: on an entity with a `jsonPatch` relation, else refused with 415. */
function jsonPatchStages(entity: ResolvedEntity): Stage[] {
  if (!takesJsonPatch(entity)) return [refuseJsonPatchStage];
  return [
    patchDocumentStage,
    keyStage,
    transaction(guardStage(), applyPatchStage, rereadStage),
    patchChangedStage,
    outcomeStage('patched'),
    itemOutputStage(),
  ];
}

/** A standard operation whose handler replaces the built-in read or write; the guard and the checks stay. */
function replaced(id: StandardOperationId, op: ResolvedOperation): Stage[] {
  switch (id) {
    case 'findMany':
      return [
        ...policy(op, 'nothing'),
        ...queryGate(op),
        resultCacheStage([listPlanStage, handlerStage, listEnvelopeStage, listIncludesStage], { rowPolicy: false }),
      ];
    case 'findOne':
      return [
        keyStage,
        ...queryGate(op),
        ...policy(op, 'nothing'),
        handlerStage,
        itemOutputStage({ conditional: true }),
      ];
    case 'createOne':
      return [
        refuseIfMatchStage,
        inputWithSetStage('createOne'),
        ...policy(op, 'request body'),
        transaction(handlerStage),
        handledOutcomeStage,
        itemOutputStage({ status: 201 }),
      ];
    case 'updateOne':
    case 'patchOne':
      return [
        id === 'updateOne' ? inputWithSetStage('updateOne') : patchInputStage,
        keyStage,
        transaction(guardStage(), handlerStage),
        handledOutcomeStage,
        itemOutputStage(),
      ];
    case 'restoreOne':
      return [keyStage, transaction(guardStage({ view: 'all' }), handlerStage), handledOutcomeStage, itemOutputStage()];
    case 'deleteOne':
    case 'purgeOne':
      return [keyStage, transaction(guardStage({ view: 'all' }), handlerStage), handledOutcomeStage, emptyOutputStage];
  }
}

function customRead(op: ResolvedOperation): Stage[] {
  return [
    refuseIfMatchStage,
    optionalKeyStage,
    ...policy(op, 'nothing'),
    ...queryGate(op),
    listPlanStage,
    customReadHandlerStage,
    customReadOutputStage,
  ];
}

/**
 * A custom write addressed by an id guards its row (the policy is given it, in the transaction); one without an id
 * gives the policy the body first. The row after is read only for an operation that publishes an event.
 */
function customWrite(op: ResolvedOperation): Stage[] {
  const after = op.custom!.realtimeEvent ? [readAfterStage] : [];
  return [
    refuseIfMatchStage,
    optionalKeyStage,
    customInputStage,
    branch(
      'byId',
      (_call, state) => state.lookup !== undefined,
      [transaction(guardStage(), customWriteHandlerStage, ...after)],
      [...policy(op, 'body'), transaction(customWriteHandlerStage)],
    ),
    customOutcomeStage,
    customWriteOutputStage,
  ];
}

function memberList(op: ResolvedOperation): Stage[] {
  return [keyStage, refuseQueryStage, loadStage, ...policy(op, 'row'), membersOutputStage];
}

function memberWrite(): Stage[] {
  return [
    keyStage,
    memberIdsStage,
    transaction(guardStage(), applyMembersStage, rereadStage),
    outcomeStage('updated'),
    itemOutputStage(),
  ];
}
