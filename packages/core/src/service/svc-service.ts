/** The programmatic face of one entity: named methods that return unwrapped results, and the engine. */
import type { AggregateQuery, CountQuery, FindManyQuery } from '../config/entity-config';
import type { SvcSettings } from '../config/svc-settings';
import type { ExecuteRequest } from '../pipeline/operation-call';
import type { SvcContext } from '../config/svc-context';
import type { SvcEngine } from './svc-engine';
import { describeEntity } from './describe-entity';
import type { EntityDescription } from './entity-description';
import type { ResolvedEntity } from '../entity/resolved-entity';
import type { RealtimeSubscription, SubscribeOptions } from '../operations/realtime-subscription';
import { subscribe } from '../operations/definitions/subscribe';

/** Per-call options: the last link of the settings chain and the context policy and `apply` see. */
export interface CallOptions {
  readonly settings?: SvcSettings;
  readonly context?: SvcContext;
}

export interface ListEnvelope<T> {
  readonly items: T[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
  readonly meta?: Record<string, unknown>;
}

/** What a batch write answers: the rows it wrote (a delete's as their keys), and an upsert's created and updated counts. */
export interface BatchResult<T> {
  readonly items: T[];
  readonly total: number;
  readonly meta?: { readonly created: number; readonly updated: number };
}

/** One group of an aggregate: its key values, its row count, and each function asked for, by field. */
export interface AggregateItem {
  readonly group: Readonly<Record<string, unknown>>;
  readonly count: number;
  readonly countDistinct?: Readonly<Record<string, number>>;
  /** A decimal column's sum is an exact decimal string, a bigint column's an integer string. */
  readonly sum?: Readonly<Record<string, number | string | null>>;
  readonly avg?: Readonly<Record<string, number | null>>;
  readonly min?: Readonly<Record<string, unknown>>;
  readonly max?: Readonly<Record<string, unknown>>;
}

/** What `aggregate` answers: a page of groups, and how many groups the whole match set forms. */
export interface AggregateResultEnvelope {
  readonly items: AggregateItem[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
}

export class SvcService<T = Record<string, unknown>> {
  /**
   * The description of the entity, and of each role's view of it (`access`), each built once; by the caller's roles on
   * the related entities that have roles, too, where the entity embeds or filters through them.
   */
  private readonly descriptions = new Map<ResolvedEntity, Map<string, EntityDescription>>();

  constructor(readonly engine: SvcEngine) {}

  /**
   * What this entity serves: fields, write slots, query allowlists, pagination and operations (built once). With a
   * caller's context, what it serves that caller: where `access` gives the caller's role a rule, the fields, slots
   * and allowlists of that role alone.
   */
  describe(context?: SvcContext): EntityDescription {
    const entity = context ? this.engine.entityFor(context) : this.engine.entity;
    const peers = context ? peerRolesOf(entity, context) : '';
    let byPeers = this.descriptions.get(entity);
    if (!byPeers) this.descriptions.set(entity, (byPeers = new Map()));
    let description = byPeers.get(peers);
    if (!description) byPeers.set(peers, (description = describeEntity(entity, peers ? context : undefined)));
    return description;
  }

  /**
   * Subscribes to the entity's realtime events with a caller's context: checked now like a list read (403, 400), then
   * per event by `admit`, which answers the event as this caller may see it, or undefined.
   */
  subscribe(options: SubscribeOptions = {}): Promise<RealtimeSubscription> {
    return subscribe.open(this.engine.entity, options);
  }

  findMany(query: FindManyQuery = {}, opts?: CallOptions): Promise<ListEnvelope<T>> {
    return this.body({ operation: 'findMany', query }, opts);
  }

  /** `opts.query` takes `select` and `include`, as `GET /:id?select=...&include=...` does. */
  findOne(
    id: unknown,
    opts?: CallOptions & { readonly query?: Pick<FindManyQuery, 'select' | 'include'> },
  ): Promise<T> {
    return this.body({ operation: 'findOne', id, query: opts?.query }, opts);
  }

  createOne(body: Partial<T> | Record<string, unknown>, opts?: CallOptions): Promise<T> {
    return this.body({ operation: 'createOne', body }, opts);
  }

  updateOne(id: unknown, body: Partial<T> | Record<string, unknown>, opts?: CallOptions): Promise<T> {
    return this.body({ operation: 'updateOne', id, body }, opts);
  }

  patchOne(id: unknown, body: Partial<T> | Record<string, unknown>, opts?: CallOptions): Promise<T> {
    return this.body({ operation: 'patchOne', id, body }, opts);
  }

  async deleteOne(id: unknown, opts?: CallOptions): Promise<void> {
    await this.body({ operation: 'deleteOne', id }, opts);
  }

  restoreOne(id: unknown, opts?: CallOptions): Promise<T> {
    return this.body({ operation: 'restoreOne', id }, opts);
  }

  async purgeOne(id: unknown, opts?: CallOptions): Promise<void> {
    await this.body({ operation: 'purgeOne', id }, opts);
  }

  /** Creates (or, with `batch.create.onConflict`, upserts) every item in one transaction: all or nothing. */
  createMany(items: readonly (Partial<T> | Record<string, unknown>)[], opts?: CallOptions): Promise<BatchResult<T>> {
    return this.body({ operation: 'createMany', body: items }, opts);
  }

  /** Sets `patch` on every row `filter` matches (at most `batch.maxAffected`), in one transaction. */
  updateMany(
    filter: NonNullable<FindManyQuery['filter']>,
    patch: Partial<T> | Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<BatchResult<T>> {
    return this.body({ operation: 'updateMany', query: { filter }, body: patch }, opts);
  }

  /** Deletes (soft or hard, as deleteOne) every row `filter` matches, in one transaction; answers their keys. */
  deleteMany(
    filter: NonNullable<FindManyQuery['filter']>,
    opts?: CallOptions,
  ): Promise<BatchResult<Record<string, unknown>>> {
    return this.body({ operation: 'deleteMany', query: { filter } }, opts);
  }

  /**
   * Counts and aggregates the rows the caller may see, grouped as `query.groupBy` says, computed by the database
   * (`aggregate` config): `{ items: [{ group, count, sum: { pages }, ... }], limit, offset, total }`.
   */
  aggregate(query: AggregateQuery = {}, opts?: CallOptions): Promise<AggregateResultEnvelope> {
    return this.body({ operation: 'aggregate', query }, opts);
  }

  /** How many rows the caller may see match the filter and search (`count: true`), counted by the database. */
  count(query: CountQuery = {}, opts?: CallOptions): Promise<{ total: number }> {
    return this.body({ operation: 'count', query }, opts);
  }

  /**
   * Runs any operation by id (a custom one, or a standard one) and returns its unwrapped result like the named
   * methods: the item, the list envelope, or undefined for a result without a body.
   */
  run<R = unknown>(
    operation: string,
    input: { readonly id?: unknown; readonly body?: unknown; readonly query?: FindManyQuery } = {},
    opts?: CallOptions,
  ): Promise<R> {
    return this.body<R>({ operation, id: input.id, body: input.body, query: input.query }, opts);
  }

  private async body<R>(request: ExecuteRequest, opts: CallOptions | undefined): Promise<R> {
    const response = await this.engine.execute({ ...request, settings: opts?.settings, context: opts?.context });
    return response.body as R;
  }
}

/** The caller's role on each related entity that has roles (`access`), as one key; '' when none has. */
function peerRolesOf(entity: ResolvedEntity, context: SvcContext): string {
  let key = '';
  for (const relation of entity.metadata.relations) {
    const peer = entity.peer(relation.target);
    if (peer?.access) key += `${peer.name}=${peer.access.role(context) ?? ''};`;
  }
  return key;
}
