/**
 * Calls an operation's handler (a replacement: config `handler` or an `@Override` method; or a custom operation's) with
 * `(input, context)`. `context.repository` is the entity's adapter scoped to the request: `filter.apply` and soft
 * delete in force, and for writes bound to the enclosing `transaction(...)` stage, whose reads and writes it shares.
 */
import type { OperationCall } from '../pipeline/operation-call';
import { ConfigurationException } from '../errors/configuration-exception';
import { stage, type FlowState } from '../pipeline/stage';
import { scopedRepository } from './scoped-repository';
import { handlerIds, primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import type { Row } from '../persistence/repository-adapter';
import type { SvcOperationInput } from '../config/entity-config';

/**
 * The handler with the flow's session. A read handler may still write through `context.repository` (each write its own
 * committed transaction): when it did, an empty outcome drops the stale cached reads, even if the handler then failed.
 */
export async function invokeHandler(call: OperationCall, input: SvcOperationInput, state: FlowState): Promise<unknown> {
  const context = { ...call.context, operation: call.operation.id };
  if (!call.operation.reads) {
    const repository = scopedRepository(call, state.session);
    return call.operation.handler!(input, { ...context, repository });
  }
  let wrote = false;
  const repository = scopedRepository(call, undefined, () => (wrote = true));
  try {
    return await call.operation.handler!(input, { ...context, repository });
  } finally {
    if (wrote) recordOutcome(call, {});
  }
}

/**
 * handler: a standard operation's replacement handler, given the flow's key, body (`values`) and read plan. Its result
 * is `state.result`, and the row an item response serves.
 */
export const handlerStage = stage('handler', { phase: 'act', gives: ['result'] }, async (call, state) => {
  state.result = await invokeHandler(call, handlerInput(state), state);
});

/**
 * handler, for an operation that answers the row: the replacement handler's result is the row served. A handler that
 * returns no row is the app's fault (a 500 naming the handler), never an empty answer.
 */
export const rowHandlerStage = stage('handler', { phase: 'act', gives: ['row', 'result'] }, async (call, state) => {
  const result = await invokeHandler(call, handlerInput(state), state);
  state.result = result;
  if (typeof result !== 'object' || result === null) {
    throw new ConfigurationException({
      entity: call.entity.name,
      path: `operations.${call.operation.id}.handler`,
      message: `returned ${result === null ? 'null' : typeof result}; it replaces an operation that answers the row, so it must return the row.`,
    });
  }
  state.row = result as Row;
});

function handlerInput(state: FlowState): SvcOperationInput {
  return { ...handlerIds(state.lookup), body: state.values, query: state.plan };
}

/** outcome: a replaced standard write's, from the row the guard locked before and the row the handler returned. */
export const handledOutcomeStage = stage('outcome', { phase: 'record', needs: ['result'] }, (call, state) => {
  const facts = call.operation.facts;
  const gone = facts?.answers === 'none';
  const result = state.result;
  const after = !gone && typeof result === 'object' && result !== null ? (result as Row) : undefined;
  const before = state.before ?? undefined;
  const keyed = before ?? after;
  const hasKey = keyed !== undefined && call.entity.metadata.primaryKeys.every((field) => keyed[field] != null);
  recordOutcome(call, {
    event: call.operation.event,
    ...(hasKey ? { key: primaryKeyOf(call, keyed) } : {}),
    before: before ?? (facts?.takes.id === false ? null : undefined),
    after: gone ? null : after,
  });
});
