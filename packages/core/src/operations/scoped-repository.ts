/**
 * `context.repository` for handlers: the entity's adapter, bound to the request's transaction (writes), with
 * `filter.apply` ANDed into every read and every addressed row, and soft delete in force. A row outside the scope is
 * 404 as in the standard operations, and a write that would move a row out of it is 403 (the transaction rolls back).
 */
import { computedSelectFor } from '../config/computed-fields';
import type { EntityKey } from '../persistence/entity-metadata';
import type {
  AdapterSession,
  FindManyArgs,
  FindOneArgs,
  Row,
  UpdateArgs,
  WriteArgs,
} from '../persistence/repository-adapter';
import type { RowId, ScopedRepository } from '../persistence/scoped-repository';

export type { ScopedRepository };
import type { OperationCall } from '../pipeline/operation-call';
import { liveView, loadRow, scopeFilter, softDeletes } from '../pipeline/load-row';
import { requireInTargetScope } from './relation-writes';
import { rereadInScope } from '../pipeline/stages/reread-stage';
import { readLookupKey } from '../pipeline/stages/lookup-stage';
import { ConfigurationException } from '../errors/configuration-exception';
import type { SvcContext } from '../config/svc-context';
import type { FindManyQuery } from '../config/entity-config';
import { resolveProgrammaticListQuery, type ListReadPlan } from '../query/resolve-list-query';
import { createBuiltInHandlers } from './list-handlers';
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
  /** The addressed row inside the scope (locked inside a transaction), or 404: the load every guard makes. */
  const guard = async (key: EntityKey, args: { session?: AdapterSession } | undefined, rowView: RowView) => {
    const current = sessionOf(args);
    const id = Object.values(key).join(',');
    await loadRow(call, key, { view: rowView, lock: current !== undefined, session: current, id });
  };
  /** A write may not move its row out of the scope: the read-back every write makes, where a scope is in force. */
  const staysInScope = async (key: EntityKey, args: { session?: AdapterSession } | undefined) => {
    if (await scope()) await rereadInScope(call, key, sessionOf(args));
  };
  /** A key object as given, or an id (`7`, `'a,b'`) read as the route's id is. */
  const keyOf = (id: unknown): EntityKey =>
    isRecord(id) ? (id as EntityKey) : readLookupKey(call, typeof id === 'string' ? id : String(id));
  /** Port arguments, or none where the call shape passes the context last. */
  const argsOf = <T extends object>(args: T | SvcContext | undefined): T | undefined =>
    args === undefined || isHandlerContext(args) ? undefined : (args as T);
  /** The row as stored now, in the call's transaction. */
  const reread = async (key: EntityKey, args: { session?: AdapterSession } | undefined) =>
    adapter.findOne({
      key,
      where: await scope(),
      view: 'all',
      session: sessionOf(args),
      computed: computedSelectFor(call.entity, call.context),
    });

  /** The built-in list handler over this repository, made the first time the call shape needs it. */
  let listHandlers: ReturnType<typeof createBuiltInHandlers> | undefined;
  // One implementation of both call shapes (an overloaded method is typed by its overloads, not by its body).
  const findMany = (async (args: unknown, _context?: SvcContext) => {
    if (isPortFindMany(args)) {
      const where = andFilters(await scope(), args.where);
      return adapter.findMany({
        computed: computedSelectFor(call.entity, call.context),
        ...args,
        where,
        sort: args.sort ?? [],
        count: args.count ?? false,
        view: view(args.view),
        session: sessionOf(args),
        ...('countWhere' in args ? { countWhere: andFilters(await scope(), args.countWhere) } : {}),
      });
    }
    // The call shape: a handler's resolved plan (`input.query`), or a query as service.findMany takes it.
    const plan = isListPlan(args) ? args : await planOf(call, (args ?? {}) as FindManyQuery);
    listHandlers ??= createBuiltInHandlers(repository);
    return listHandlers.findMany({ query: plan }, call.context);
  }) as ScopedRepository['findMany'];

  const repository: ScopedRepository = {
    metadata: adapter.metadata,
    metadataOf: adapter.metadataOf?.bind(adapter),
    loadRelation: adapter.loadRelation
      ? async (args) => scopedLoadRelation(call, { ...args, session: sessionOf(args) }, await scope())
      : undefined,
    transaction: (work) => (session ? work(session) : adapter.transaction(work)),
    findMany,
    async findOne(args: unknown, _context?: SvcContext) {
      if (isRecord(args) && 'key' in args) {
        const port = args as unknown as FindOneArgs;
        const where = andFilters(await scope(), port.where);
        return adapter.findOne({
          computed: computedSelectFor(call.entity, call.context),
          ...port,
          where,
          view: view(port.view),
          session: sessionOf(port),
        });
      }
      return adapter.findOne({
        key: keyOf(args),
        where: await scope(),
        view: view(),
        session: sessionOf(),
        computed: computedSelectFor(call.entity, call.context),
      });
    },
    insert: (values, args) =>
      writing(argsOf(args), async (write) => {
        await requireReferencesInScope(call, values, write.session);
        const inserted = await adapter.insert(values, write);
        await staysInScope(inserted.key, write);
        return inserted;
      }),
    async create(values, context) {
      const inserted = await repository.insert(values, context);
      return (await reread(inserted.key, undefined)) ?? inserted.row ?? values;
    },
    // One body for both call shapes; the overloads say which answers what.
    update: ((id: RowId, values: Row, args?: Partial<UpdateArgs> | object) =>
      writing(argsOf(args), async (write) => {
        const key = keyOf(id);
        await guard(key, write, view());
        await requireReferencesInScope(call, values, write.session);
        const stored = await adapter.update(key, values, write);
        await staysInScope(key, write);
        // The call shape answers the row as stored, as create does.
        if (isHandlerContext(args)) return stored ?? (await reread(key, write));
        return stored;
      })) as ScopedRepository['update'],
    softDelete: (id, args) =>
      writing(argsOf(args), async (write) => {
        const key = keyOf(id);
        await guard(key, write, view());
        await adapter.softDelete(key, write);
      }),
    restore: (id, args) =>
      writing(argsOf(args), async (write) => {
        const key = keyOf(id);
        await guard(key, write, 'deleted');
        await adapter.restore(key, write);
      }),
    remove: (id, args) =>
      writing(argsOf(args), async (write) => {
        const key = keyOf(id);
        await guard(key, write, 'all');
        await adapter.remove(key, write);
      }),
    delete: (id, context) => (softDeletes(call) ? repository.softDelete(id, context) : repository.remove(id, context)),
    relate: (id, relation, change, args) =>
      writing(argsOf(args), async (write) => {
        const current = write.session;
        // Addressed by its route key (a slug, say); its relation is written by its primary key.
        const row = await loadRow(call, keyOf(id), { view: view(), lock: true, session: current });
        const key = Object.fromEntries(adapter.metadata.primaryKeys.map((name) => [name, row[name]]));
        const found = adapter.metadata.relations.find((candidate) => candidate.property === relation);
        if (!found || !found.kind.endsWith('many') || !adapter.updateRelation)
          throw new ConfigurationException({
            entity: call.entity.name,
            message: `context.repository.relate: '${relation}' is not a to-many relation this adapter writes.`,
          });
        const add = change.add ?? [];
        const targetKey = { property: adapter.metadataOf?.(found.target).primaryKeys[0] ?? 'id' };
        await requireInTargetScope(call, { relation: found, targetKey }, add, write.session!);
        await adapter.updateRelation({ relation, key, add, remove: change.remove ?? [], session: write.session! });
      }),
  };
  return repository;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The context a handler passes back as the last argument (SPEC's call shape): the handler's own context, which holds
 * `operation` and `repository`; no argument object of the port has either.
 */
function isHandlerContext(value: unknown): value is SvcContext {
  return isRecord(value) && ('repository' in value || 'operation' in value);
}

/** The port's findMany arguments: a filter tree, sort keys as objects, a view or a count. */
function isPortFindMany(args: unknown): args is Parameters<ScopedRepository['findMany']>[0] & FindManyArgs {
  if (!isRecord(args) || isListPlan(args)) return false;
  const sortKeys = Array.isArray(args['sort']) && args['sort'].some((key) => isRecord(key));
  return 'where' in args || 'view' in args || 'count' in args || 'countWhere' in args || sortKeys;
}

/** A resolved list plan (`input.query` of a findMany or custom read handler). */
function isListPlan(value: unknown): value is ListReadPlan {
  return isRecord(value) && Array.isArray(value['select']) && Array.isArray(value['include']) && 'view' in value;
}

/** A programmatic query resolved under the entity's findMany allowlists and limits. */
async function planOf(call: OperationCall, query: FindManyQuery): Promise<ListReadPlan> {
  const listing = call.entity.listOperation;
  const config = listing?.list ?? call.operation.list;
  if (!config) {
    throw new ConfigurationException({
      entity: call.entity.name,
      path: `operations.${call.operation.id}.handler`,
      message: `calls context.repository.findMany(query), and ${call.entity.name} serves no findMany to read the query by. Turn findMany on, or pass the adapter's own arguments ({ where, sort, limit }).`,
    });
  }
  return resolveProgrammaticListQuery(query, config, listing?.id ?? call.operation.id, call.context);
}
