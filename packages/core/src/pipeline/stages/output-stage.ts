/** Builds item and list responses: projection, ETag, 304 on a matching If-None-Match. */
import { computeEtag, computeShapedEtag } from '../../cache/etag';
import type { Row } from '../../persistence/repository-adapter';
import { projectRow } from '../../schema/output-projection';
import { etagsOn, type ExecuteResponse, type OperationCall } from '../operation-call';
import { ifNoneMatchHits } from './precondition-stage';

export function itemResponse(
  call: OperationCall,
  row: Row,
  options: { status?: number; conditional?: boolean; body?: Record<string, unknown> } = {},
): ExecuteResponse {
  const state = projectRow(row, call.entity.output);
  const operationFields = call.operation.outputFields;
  const body = options.body ?? (operationFields ? projectRow(row, { fields: operationFields }) : state);
  if (!etagsOn(call)) return { status: options.status ?? 200, body, headers: {} };
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
