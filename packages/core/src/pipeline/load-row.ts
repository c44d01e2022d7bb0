/** Loads the row a single-row operation addresses, inside the caller's scope; missing or out of scope is 404. */
import { NotFoundException } from '../errors/svc-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { FilterNode, RowView } from '../persistence/query-ast';
import { visibleRows } from '../query/visible-rows';
import { computedSelectFor } from '../config/computed-fields';
import type { OperationCall } from './operation-call';

export interface LoadRowOptions {
  readonly view: RowView;
  readonly lock?: boolean;
  readonly session?: AdapterSession;
  /** How a 404 names the row. @default the request's id */
  readonly id?: unknown;
}

export async function loadRow(call: OperationCall, key: EntityKey, options: LoadRowOptions): Promise<Row> {
  const { id = call.request.id, ...read } = options;
  // A locked read comes before a write, which reads the row back: only a served read computes the computed fields.
  const computed = read.lock ? undefined : computedSelectFor(call.entity, call.context);
  const row = await call.entity.adapter.findOne({ key, where: await scopeFilter(call), ...read, computed });
  if (!row) throw new NotFoundException(call.entity.name, id);
  return row;
}

/** The rows of the call's entity the caller may see for this operation (`visibleRows`, asked once per call). */
export function scopeFilter(call: OperationCall): Promise<FilterNode | undefined> {
  return scopeOf(call, call.entity);
}

/** The rows of `entity` (the call's own, or a related one) the caller may see, asked once per call and entity. */
export function scopeOf(
  call: OperationCall,
  entity: Parameters<typeof visibleRows>[0],
): Promise<FilterNode | undefined> {
  return visibleRows(entity, { operation: call.operation.id, context: call.context }, call);
}

/** The row view of a read or a lookup before a write: soft-deleted rows are hidden unless soft delete is off. */
export function liveView(call: OperationCall): RowView {
  return softDeletes(call) ? 'live' : 'all';
}

/** Soft delete in force for this call: resolved per operation, and `delete: false` per call turns it off. */
export function softDeletes(call: OperationCall): boolean {
  return call.operation.softDelete && call.settings.delete !== false;
}
