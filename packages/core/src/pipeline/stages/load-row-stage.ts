/** Loads the row a single-row operation addresses, inside `filter.apply`; missing or out of scope is 404. */
import { NotFoundException } from '../../errors/svc-exception';
import type { EntityKey } from '../../persistence/entity-metadata';
import type { AdapterSession, Row } from '../../persistence/repository-adapter';
import type { RowView } from '../../persistence/query-ast';
import { resolveApplyFilter } from '../../query/resolve-apply-filter';
import type { OperationCall } from '../operation-call';

export interface LoadRowOptions {
  readonly view: RowView;
  readonly lock?: boolean;
  readonly session?: AdapterSession;
}

export async function loadRow(call: OperationCall, key: EntityKey, options: LoadRowOptions): Promise<Row> {
  const row = await call.entity.adapter.findOne({ key, where: await scopeFilter(call), ...options });
  if (!row) throw new NotFoundException(call.entity.name, call.request.id);
  return row;
}

/** Each call's resolved scope: the guard, the read-back and the lean-write check share one `filter.apply` call. */
const scopes = new WeakMap<OperationCall, ReturnType<typeof resolveApplyFilter>>();

/** The `filter.apply` node for this call, or undefined; resolved once per call. */
export function scopeFilter(call: OperationCall): ReturnType<typeof resolveApplyFilter> {
  let scope = scopes.get(call);
  if (!scope) {
    scope = resolveApplyFilter(call.entity.filterApply, call.entity.serverFilter, {
      entity: call.entity.name,
      operation: call.operation.id,
      context: call.context,
    });
    scopes.set(call, scope);
  }
  return scope;
}

/** The row view of a read or a lookup before a write: soft-deleted rows are hidden unless soft delete is off. */
export function liveView(call: OperationCall): RowView {
  return softDeletes(call) ? 'live' : 'all';
}

/** Soft delete in force for this call: resolved per operation, and `delete: false` per call turns it off. */
export function softDeletes(call: OperationCall): boolean {
  return call.operation.softDelete && call.settings.delete !== false;
}
