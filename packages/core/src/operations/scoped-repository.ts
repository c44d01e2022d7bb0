/**
 * `context.repository` for handlers: the entity's adapter, bound to the request's transaction (writes), with
 * `filter.apply` ANDed into every read and every addressed row, and soft delete in force. A row outside the scope is
 * 404 as in the standard operations, and a write that would move a row out of it is 403 (the transaction rolls back).
 */
import { ForbiddenException, NotFoundException } from '../errors/svc-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import type { AdapterSession, WriteArgs } from '../persistence/repository-adapter';
import type { ScopedRepository } from '../persistence/scoped-repository';

export type { ScopedRepository };
import type { OperationCall } from '../pipeline/operation-call';
import { liveView, scopeFilter } from '../pipeline/stages/load-row-stage';
import { runInTransaction } from '../pipeline/run-in-transaction';
import { scopedLoadRelation } from './scoped-load-relation';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { andFilters, type RowView } from '../persistence/query-ast';

/**
 * Without a session (a read operation's handler), each write runs in a transaction of its own, the scope check
 * included; `onWrite` tells the caller something was written.
 */
export function scopedRepository(
  call: OperationCall,
  session?: AdapterSession,
  onWrite?: () => void,
): ScopedRepository {
  const adapter = call.entity.adapter;
  // The caller's scope, resolved once per call (shared with the flow's own guard and read-back).
  const scope = () => scopeFilter(call);
  /** Runs a write in the request's transaction, or in one of its own. */
  const writing = <T>(args: Partial<WriteArgs> | undefined, work: (args: WriteArgs) => Promise<T>): Promise<T> => {
    onWrite?.();
    const current = sessionOf(args);
    // A write of its own retries deadlocks like every other transaction of the engine.
    return current ? work({ session: current }) : runInTransaction(call, (own) => work({ session: own }));
  };
  const view = (given?: RowView): RowView => given ?? liveView(call);
  const sessionOf = (args?: { session?: AdapterSession }) => args?.session ?? session;
  /** The addressed row inside the scope (locked inside a transaction), or 404. */
  const guard = async (key: EntityKey, args: { session?: AdapterSession } | undefined, rowView: RowView) => {
    const where = await scope();
    const current = sessionOf(args);
    const row = await adapter.findOne({ key, where, view: rowView, lock: current !== undefined, session: current });
    if (!row) throw new NotFoundException(call.entity.name, Object.values(key).join(','));
  };
  const staysInScope = async (key: EntityKey, args: { session?: AdapterSession } | undefined) => {
    const where = await scope();
    if (!where) return;
    const row = await adapter.findOne({ key, where, view: 'all', session: sessionOf(args) });
    if (!row)
      throw new ForbiddenException(
        call.operation.id,
        call.entity.name,
        `The written ${call.entity.name} would fall outside your scope (filter.apply), so nothing was written.`,
      );
  };
  return {
    metadata: adapter.metadata,
    metadataOf: adapter.metadataOf?.bind(adapter),
    loadRelation: adapter.loadRelation
      ? async (args) => scopedLoadRelation(call, { ...args, session: sessionOf(args) }, await scope())
      : undefined,
    transaction: (work) => (session ? work(session) : adapter.transaction(work)),
    async findMany(args) {
      const where = andFilters(await scope(), args.where);
      return adapter.findMany({
        ...args,
        where,
        sort: args.sort ?? [],
        count: args.count ?? false,
        view: view(args.view),
        session: sessionOf(args),
        ...('countWhere' in args ? { countWhere: andFilters(await scope(), args.countWhere) } : {}),
      });
    },
    async findOne(args) {
      const where = andFilters(await scope(), args.where);
      return adapter.findOne({ ...args, where, view: view(args.view), session: sessionOf(args) });
    },
    insert: (values, args) =>
      writing(args, async (write) => {
        await requireReferencesInScope(call, values, write.session);
        const inserted = await adapter.insert(values, write);
        await staysInScope(inserted.key, write);
        return inserted;
      }),
    update: (key, values, args) =>
      writing(args, async (write) => {
        await guard(key, write, view());
        await requireReferencesInScope(call, values, write.session);
        const stored = await adapter.update(key, values, write);
        await staysInScope(key, write);
        return stored;
      }),
    softDelete: (key, args) =>
      writing(args, async (write) => {
        await guard(key, write, view());
        await adapter.softDelete(key, write);
      }),
    restore: (key, args) =>
      writing(args, async (write) => {
        await guard(key, write, 'deleted');
        await adapter.restore(key, write);
      }),
    remove: (key, args) =>
      writing(args, async (write) => {
        await guard(key, write, 'all');
        await adapter.remove(key, write);
      }),
  };
}
