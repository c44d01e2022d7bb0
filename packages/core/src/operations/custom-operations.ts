/**
 * The flow of a custom operation: If-Match refused, policy, query resolution (read) or the body's schema (write, in
 * one transaction), the handler with a scoped `context.repository`, then the projection of custom results (entity fields, or `schema.output`),
 * ETag and the list envelope for `cardinality: 'many'`.
 */
import { computeEtag } from '../cache/etag';
import type { FindManyQuery, SvcOperationInput } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import { ValidationFailedException } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import { etagsOn, type ExecuteResponse, type OperationCall } from '../pipeline/operation-call';
import { runInTransaction } from '../pipeline/run-in-transaction';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { ifNoneMatchHits, refuseIfMatch } from '../pipeline/stages/precondition-stage';
import { attachIncludes } from './attach-includes';
import { includeArgs, listConfig } from './read-operations';
import { handlerIds, primaryKeyOf, readLookupKey } from '../pipeline/stages/key-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { guardRow } from '../pipeline/stages/guard-stage';
import type { RealtimeEventId } from '../config/svc-settings';
import type { EntityKey } from '../persistence/entity-metadata';
import type { QueryPairs } from '../query/parse-query-string';
import { resolveProgrammaticListQuery, resolveWireListQuery, type ListReadPlan } from '../query/resolve-list-query';
import { projectRow } from '../schema/output-projection';
import { checkQuery } from '../query/query-validator';
import type { AdapterSession } from '../persistence/repository-adapter';
import { scopedRepository } from './scoped-repository';

export async function customOperation(call: OperationCall): Promise<ExecuteResponse> {
  refuseIfMatch(call);
  const spec = call.operation.custom!;
  // Like a standard handler's: `input.id` is the route id coerced to the key's kind, `input.key` the key object.
  const id = call.request.id === undefined ? undefined : readLookupKey(call);
  const ids = handlerIds(id);
  if (spec.kind === 'read') {
    await checkPolicy(call, {});
    await checkQuery(call.operation.queryValidator, call.request.query);
    const plan = await readPlan(call);
    const writes = { count: 0 };
    let result: unknown;
    try {
      result = await callHandler(call, { ...ids, query: plan }, undefined, writes);
    } finally {
      // A read handler may write through context.repository (each write its own transaction): drop stale reads.
      if (writes.count > 0) recordOutcome(call, {});
    }
    const explicitSelect = selectSent(call.request.query);
    const response = respond(call, result, { plan, fields: explicitSelect ? plan.select : undefined });
    await attachCustomIncludes(call, plan, result, response);
    return conditional(call, response);
  }
  const body = spec.input ? await validated(spec.input, call.request.body) : call.request.body;
  if (id === undefined) await checkPolicy(call, { body });
  const { result, before, after } = await runInTransaction(call, async (session) => {
    // A write addressed by :id gives its policy the row, read and locked in the write's transaction (404 outside scope).
    const locked = id === undefined ? undefined : await guardRow(call, id, session, { body });
    const result = await callHandler(call, { ...ids, body }, session);
    // The row after, for the event it publishes (read only when it names one).
    const key = locked && primaryKeyOf(call, locked);
    const after = key && spec.realtimeEvent ? await readAfter(call, key, session) : undefined;
    return { result, before: locked, after };
  });
  // Committed: the after-commit step drops cached reads even if the projection below fails the response.
  recordOutcome(call, {
    ...(spec.realtimeEvent ? { event: spec.realtimeEvent as RealtimeEventId } : {}),
    ...(before ? { key: primaryKeyOf(call, before) } : {}),
    before,
    after: spec.realtimeEvent === 'deleted' ? null : after,
  });
  return respond(call, result, {});
}

/** The addressed row after a custom write, whatever its soft-delete state (null when the handler removed it). */
async function readAfter(call: OperationCall, key: EntityKey, session: AdapterSession): Promise<Row | null> {
  return call.entity.adapter.findOne({ key, view: 'all', session });
}

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

function readPlan(call: OperationCall): Promise<ListReadPlan> {
  const query = call.request.query;
  // Rebuilt when per-call settings change the chain, as for findMany.
  const config = listConfig(call);
  return Array.isArray(query)
    ? resolveWireListQuery(query as QueryPairs, config, call.operation.id, call.context)
    : resolveProgrammaticListQuery((query ?? {}) as FindManyQuery, config, call.operation.id, call.context);
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

function callHandler(
  call: OperationCall,
  input: SvcOperationInput,
  session?: AdapterSession,
  writes?: { count: number },
): Promise<unknown> {
  const repository = scopedRepository(call, session, () => writes && writes.count++);
  const context = { ...call.context, repository, operation: call.operation.id };
  return Promise.resolve(call.operation.handler!(input, context));
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
  if (!selected && !spec.outputClassFields && !spec.outputList && call.operation.outputValidator)
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
