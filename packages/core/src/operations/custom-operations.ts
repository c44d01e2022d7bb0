/**
 * The stages of custom operations of their own: the handler with a scoped `context.repository`, the body's schema,
 * and the projection of custom results (entity fields, or `schema.output`), ETag and the list envelope for
 * `cardinality: 'many'`.
 */
import { computedSelectFor } from '../config/computed-fields';
import { computeEtag } from '../cache/etag';
import type { FindManyQuery } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import { ValidationFailedException } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import { etagsOn, type ExecuteResponse, type OperationCall } from '../pipeline/operation-call';
import { stage } from '../pipeline/stage';
import { ifNoneMatchHits } from '../pipeline/stages/precondition-stage';
import { attachIncludes } from './attach-includes';
import { includeArgs } from './read-operations';
import { handlerIds } from '../pipeline/stages/lookup-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import type { RealtimeEventId } from '../config/svc-settings';
import type { QueryPairs } from '../query/parse-query-string';
import type { ListReadPlan } from '../query/resolve-list-query';
import { projectRow } from '../schema/output-projection';
import { invokeHandler } from './run-handler';

/** handler: a custom read's handler, with the route's ids and the resolved read plan. */
export const customReadHandlerStage = stage(
  'handler',
  { phase: 'act', needs: ['plan'], gives: ['result'] },
  async (call, state) => {
    state.result = await invokeHandler(call, { ...handlerIds(state.lookup), query: state.plan }, state);
  },
);

/**
 * output: the result projected (entity fields, `schema.output`, or an explicit `select=`), with its includes and its
 * ETag, or the list envelope for `cardinality: 'many'`.
 */
export const customReadOutputStage = stage(
  'output',
  { phase: 'respond', needs: ['plan', 'result'], gives: ['response'] },
  async (call, state) => {
    const plan = state.plan;
    // The list's projection where the request or the entity's `select.default`/`apply` chose one, as findMany's.
    const custom = call.operation.custom!;
    const ownOutput =
      custom.outputClassFields !== undefined ||
      custom.outputList !== undefined ||
      call.operation.outputValidator !== undefined;
    const chosen =
      selectSent(call.request.query) || (!ownOutput && (call.entity.select.default || call.entity.select.apply));
    const response = respond(call, state.result, { plan, fields: chosen ? plan.select : undefined });
    await attachCustomIncludes(call, plan, state.result, response);
    state.response = conditional(call, response);
  },
);

/** input: the body through the operation's `schema.input`, when it has one (as sent otherwise). */
export const customInputStage = stage('input', { phase: 'input' }, async (call, state) => {
  const input = call.operation.custom?.input;
  state.body = input ? await validated(input, call.request.body) : call.request.body;
});

/** handler: a custom write's handler, with the route's ids and the body, in the flow's transaction. */
export const customWriteHandlerStage = stage('handler', { phase: 'act', gives: ['result'] }, async (call, state) => {
  state.result = await invokeHandler(call, { ...handlerIds(state.lookup), body: state.body }, state);
});

/** readAfter: the addressed row after the write, whatever its soft-delete state, for the event it publishes. */
export const readAfterStage = stage('readAfter', { phase: 'reread', needs: ['key'] }, async (call, state) => {
  state.row = await call.entity.adapter.findOne({
    key: state.key,
    view: 'all',
    session: state.session,
    computed: computedSelectFor(call.entity, call.context),
  });
});

/** outcome: a custom write's, with its `realtimeEvent` when it names one; without, it only drops cached reads. */
export const customOutcomeStage = stage('outcome', { phase: 'record' }, (call, state) => {
  const event = call.operation.custom?.realtimeEvent as RealtimeEventId | undefined;
  recordOutcome(call, {
    ...(event ? { event } : {}),
    ...(state.key ? { key: state.key } : {}),
    before: state.before ?? undefined,
    after: event === 'deleted' ? null : state.row,
  });
});

/** output: the result projected (entity fields or `schema.output`), 204 when the handler returned nothing. */
export const customWriteOutputStage = stage(
  'output',
  { phase: 'respond', needs: ['result'], gives: ['response'] },
  (call, state) => {
    state.response = respond(call, state.result, {});
  },
);

/** If-None-Match on a single-object read answers 304, whatever success status the route sets. */
function conditional(call: OperationCall, response: ExecuteResponse): ExecuteResponse {
  if (response.etag === undefined || !ifNoneMatchHits(call, response.etag)) return response;
  return { status: 304, etag: response.etag, headers: { ETag: response.etag } };
}

/** `include=` embeds relations into entity rows the handler returned, as findMany and findOne do. */
async function attachCustomIncludes(
  call: OperationCall,
  plan: ListReadPlan,
  result: unknown,
  response: ExecuteResponse,
): Promise<void> {
  if (plan.include.length === 0 || typeof result !== 'object' || result === null) return;
  const rows = call.operation.custom!.cardinality === 'many' ? (result as { entities: Row[] }).entities : result;
  const body = response.body as { items?: Record<string, unknown>[] } | Record<string, unknown>[] | undefined;
  const items =
    call.operation.custom!.cardinality === 'many' ? (body as { items: Record<string, unknown>[] }).items : body;
  const rowList = (Array.isArray(rows) ? rows : [rows]) as Row[];
  const itemList = (Array.isArray(items) ? items : [items]) as Record<string, unknown>[];
  await attachIncludes(plan.include, rowList, itemList, includeArgs(call));
  if (response.etag !== undefined && !Array.isArray(items)) {
    const etag = computeEtag(items as Record<string, unknown>);
    Object.assign(response, { etag, headers: { ...response.headers, ETag: etag } });
  }
}

function selectSent(query: unknown): boolean {
  if (Array.isArray(query)) return (query as QueryPairs).some(([name]) => name === 'select');
  return typeof query === 'object' && query !== null && (query as FindManyQuery).select !== undefined;
}

async function validated(validator: NonNullable<OperationCall['operation']['queryValidator']>, body: unknown) {
  const outcome = await validator(body);
  if ('errors' in outcome) throw new ValidationFailedException(outcome.errors);
  return outcome.value;
}

/** 201 by default (`meta.routes.successStatus` changes it), 204 when the handler returns nothing. */
function respond(
  call: OperationCall,
  result: unknown,
  options: { plan?: ListReadPlan; fields?: readonly string[] },
): ExecuteResponse {
  if (call.operation.custom!.cardinality === 'many') return listResponse(call, result, options);
  if (result === undefined || result === null) return { status: 204, headers: {} };
  const body = project(call, result, options.fields);
  if (!etagsOn(call) || typeof body !== 'object' || body === null || Array.isArray(body))
    return { status: 201, body, headers: {} };
  const etag = computeEtag(body as Record<string, unknown>);
  return { status: 201, body, etag, headers: { ETag: etag } };
}

function listResponse(
  call: OperationCall,
  result: unknown,
  options: { plan?: ListReadPlan; fields?: readonly string[] },
): ExecuteResponse {
  const list = result as { entities?: unknown; total?: unknown; meta?: Record<string, unknown> } | undefined;
  if (!list || !Array.isArray(list.entities) || !('total' in list)) {
    throw new ConfigurationException({
      entity: call.entity.name,
      path: `operations.${call.operation.id}.handler`,
      message: "has cardinality 'many', so it must return { entities, total }.",
    });
  }
  const items = project(call, list.entities, options.fields) as unknown[];
  const body: Record<string, unknown> = {
    items,
    limit: options.plan?.reportedLimit ?? items.length,
    offset: options.plan?.reportedOffset ?? 0,
    total: list.total ?? null,
  };
  if (list.meta && Object.keys(list.meta).length > 0) body.meta = list.meta;
  return { status: 201, body, headers: {} };
}

/**
 * Rule 6: without `schema.output` a result is projected to the entity's fields (a narrower entity shape stays as it
 * is); a class output serves its runtime fields, a field list those fields. Rule 7: a result the projection empties is
 * a server fault naming the operation, except under an explicit `select=` (the caller asked for that shape).
 */
function project(call: OperationCall, result: unknown, selected?: readonly string[]): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const spec = call.operation.custom!;
  // An output validator serves the result as it is, but to a role that reads less (`access`), which it narrows.
  if (
    !selected &&
    !spec.outputClassFields &&
    !spec.outputList &&
    call.operation.outputValidator &&
    !call.entity.readsLess
  )
    return JSON.parse(JSON.stringify(result)) as unknown;
  const fields = selected ?? spec.outputClassFields ?? spec.outputList ?? call.entity.output.fields;
  const one = (value: unknown) =>
    typeof value === 'object' && value !== null ? projectRow(value as Row, { fields }) : value;
  const projected = Array.isArray(result) ? result.map(one) : one(result);
  const values = Array.isArray(projected) ? projected : [projected];
  const emptied = values.length > 0 && values.every((value) => isEmptyObject(value));
  if (emptied && !selected) throw emptiedResult(call);
  return projected;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function emptiedResult(call: OperationCall): ConfigurationException {
  const spec = call.operation.custom!;
  const cause =
    spec.outputClassFields === undefined
      ? `the result has no field in common with ${call.entity.name}: return entity fields, or give the operation a schema.output class whose fields have runtime initializers`
      : spec.outputClassFields.length === 0
        ? 'its schema.output class has no runtime fields: give every field an initializer (for example `published = false`)'
        : `the result's keys do not match its schema.output class (${spec.outputClassFields.join(', ')})`;
  return new ConfigurationException({
    entity: call.entity.name,
    path: `operations.${call.operation.id}`,
    message: `returned a result its projection empties; ${cause}.`,
  });
}
