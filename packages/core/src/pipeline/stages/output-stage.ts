/** Builds item and list responses: projection, ETag, 304 on a matching If-None-Match. */
import { computeEtag, computeShapedEtag } from '../../cache/etag';
import type { Row } from '../../persistence/repository-adapter';
import { projectRow } from '../../schema/output-projection';
import { responseEtagOn, type ExecuteResponse, type OperationCall } from '../operation-call';
import { ifNoneMatchHits } from './precondition-stage';
import { stage } from '../stage';
import { assertOutput, type OutputValidator } from '../../schema/output-slots';

export function itemResponse(
  call: OperationCall,
  row: Row,
  options: { status?: number; conditional?: boolean; body?: Record<string, unknown> } = {},
): ExecuteResponse {
  const state = stateOf(call, row);
  const operationFields = call.operation.outputFields;
  const body =
    options.body ??
    (operationFields
      ? projectRow(row, { fields: operationFields })
      : call.entity.computed.length > 0
        ? projectRow(row, call.entity.output)
        : state);
  if (!responseEtagOn(call)) return { status: options.status ?? 200, body, headers: {} };
  const etag = body === state ? computeEtag(state) : computeShapedEtag(state, body);
  if (options.conditional && ifNoneMatchHits(call, etag)) return { status: 304, etag, headers: { ETag: etag } };
  return { status: options.status ?? 200, body, etag, headers: { ETag: etag } };
}

/** 304 with no body when If-None-Match matches the response's ETag. */
export function notModified(call: OperationCall, response: ExecuteResponse): ExecuteResponse {
  if (response.status !== 200 || response.etag === undefined || !ifNoneMatchHits(call, response.etag)) return response;
  return { status: 304, etag: response.etag, headers: { ETag: response.etag } };
}

export function listResponse(
  call: OperationCall,
  result: {
    rows: Row[];
    total: number | null;
    limit: number;
    offset: number;
    select: readonly string[];
    meta?: Record<string, unknown>;
  },
): ExecuteResponse {
  const projection = { fields: result.select };
  const items = result.rows.map((row) => projectRow(row, projection));
  const body: Record<string, unknown> = { items, limit: result.limit, offset: result.offset, total: result.total };
  if (result.meta && Object.keys(result.meta).length > 0) body.meta = result.meta;
  return { status: 200, body, headers: {} };
}

export function emptyResponse(status = 204): ExecuteResponse {
  return { status, headers: {} };
}

/**
 * output: the item response of `state.row` (the operation's output fields, its ETag); `conditional` answers 304 on a
 * matching If-None-Match; `location` adds the new row's route id, from which a binding builds `Location`.
 */
export function itemOutputStage(options: { status?: number; conditional?: boolean; location?: boolean } = {}) {
  return stage('output', { phase: 'respond', needs: ['row'], gives: ['response'] }, (call, state) => {
    const row = state.row;
    const response = itemResponse(call, row, options);
    if (!options.location) return void (state.response = response);
    const resourceId = call.entity.lookup.fields.map((field) => String(row[field])).join(',');
    state.response = { ...response, resourceId };
  });
}

/** output: 204 with no body. */
export const emptyOutputStage = stage('output', { phase: 'respond', gives: ['response'] }, (_call, state) => {
  state.response = emptyResponse();
});

/** notModified: 304 with no body when If-None-Match matches the response's ETag. */
export const notModifiedStage = stage('notModified', { phase: 'respond', needs: ['response'] }, (call, state) => {
  state.response = notModified(call, state.response);
});

/** successStatus: `meta.routes.successStatus` replaces the operation's own success status (never a 304 or an error). */
export function successStatusStage(status: number) {
  return stage('successStatus', { phase: 'respond', needs: ['response'] }, (_call, state) => {
    const response = state.response;
    if (response.status !== 304 && response.status < 300) state.response = { ...response, status };
  });
}

/** assertOutput: the items served pass the operation's output validator (a failure is the server's 500). */
export function assertOutputStage(validator: OutputValidator) {
  return stage('assertOutput', { phase: 'verify', needs: ['response'] }, async (call, state) => {
    const response = state.response;
    if (response.body === undefined || response.status >= 300) return;
    const body = response.body as { items?: unknown[] };
    await assertOutput(call.entity.name, validator, Array.isArray(body.items) ? body.items : [response.body]);
  });
}

/**
 * The row's state, as its ETag hashes it: the output fields but the computed ones, which depend on the caller and
 * which a locked read before a write does not compute (a served body that has them gets a shaped tag of that state).
 */
export function stateOf(call: OperationCall, row: Row): Record<string, unknown> {
  const entity = call.entity;
  if (entity.computed.length === 0) return projectRow(row, entity.output);
  let fields = stateFields.get(entity.output);
  if (!fields) {
    const computed = new Set(entity.computed.map((field) => field.name));
    fields = { fields: entity.output.fields.filter((name) => !computed.has(name)) };
    stateFields.set(entity.output, fields);
  }
  return projectRow(row, fields);
}

const stateFields = new WeakMap<object, { fields: readonly string[] }>();
