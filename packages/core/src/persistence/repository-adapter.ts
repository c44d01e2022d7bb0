/** The port every persistence adapter implements; core never talks to a database any other way. */
import type { PlatformPackage } from '../errors/supported-versions';
import type { FilterNode, RowView, SortKey } from './query-ast';
import type { EntityKey, EntityMetadata } from './entity-metadata';
import type { ComputedSelect } from './sql-fragment';

/** A unit of work opened by `RepositoryAdapter.transaction`; opaque to core. */
export interface AdapterSession {
  readonly adapterSession: true;
}

export type Row = Record<string, unknown>;

export interface FindManyArgs {
  readonly where?: FilterNode;
  /**
   * Every adapter sorts a null as larger than any value: nulls last ascending, first descending (PostgreSQL's own
   * order), so keyset pages continue through null keys the same way on every database.
   */
  readonly sort: readonly SortKey[];
  /** Omitted: no limit. */
  readonly limit?: number;
  readonly offset?: number;
  /** Count the whole match set; when false `total` is null. */
  readonly count: boolean;
  /** When given, the count uses this condition instead of `where` (a keyset page counts the whole match set). */
  readonly countWhere?: FilterNode;
  readonly view: RowView;
  readonly session?: AdapterSession;
  /** Date-time properties whose database spelling `FindManyResult.exact` carries, row by row (keyset boundaries). */
  readonly exactKeys?: readonly string[];
  /**
   * Lock the rows read for the rest of the transaction (`SELECT ... FOR UPDATE` where the database has it; SQLite's
   * writer lock covers it). Only with a `session`, and never with `count`'s second statement.
   */
  readonly lock?: boolean;
  /** The entity's `computed` fields, as SQL for this caller: selected beside the columns, under their names. */
  readonly computed?: readonly ComputedSelect[];
}

export interface FindManyResult {
  readonly rows: Row[];
  readonly total: number | null;
  /**
   * With `exactKeys`: per row, each key's value as the database spells it (`YYYY-MM-DD HH:MM:SS[.ffffff][+00]`, or
   * the stored text on SQLite), or null. A filter condition given that spelling as a `DatabaseSpelling` compares equal.
   */
  readonly exact?: readonly Readonly<Record<string, string | null>>[];
}

export interface FindOneArgs {
  readonly key: EntityKey;
  /** Extra conditions the row must meet (for example `filter.apply`). */
  readonly where?: FilterNode;
  readonly view: RowView;
  /** Lock the row for the rest of the transaction (`SELECT ... FOR UPDATE` where the database has it). */
  readonly lock?: boolean;
  readonly session?: AdapterSession;
  /** The entity's `computed` fields, as SQL for this caller: selected beside the columns, under their names. */
  readonly computed?: readonly ComputedSelect[];
}

export interface LoadRelationArgs {
  /** A relation property of this adapter's entity. */
  readonly relation: string;
  /** Parent rows as this adapter returned them (they hold the primary key and any mapped foreign keys). */
  readonly parents: readonly Row[];
  /**
   * Owning to-one only: answer `{ <targetKey>: fk }` objects, for the targets that meet `where` and `view` (null for
   * the others). From the parent's foreign key alone, without reading the target, when nothing filters the targets.
   */
  readonly keysOnly?: boolean;
  /** Conditions the target rows must meet (the target entity's `filter.apply`). */
  readonly where?: FilterNode;
  /** Which target rows are visible when the target has a soft-delete marker. */
  readonly view: RowView;
  readonly session?: AdapterSession;
  /** The target entity's `computed` fields, as SQL for this caller (not with `keysOnly`). */
  readonly computed?: readonly ComputedSelect[];
}

export interface WriteArgs {
  /**
   * The transaction to write in. Omitted, the statement runs on its own and is its own transaction: core omits it only
   * for a write that is one statement, on an adapter that `returnsWrittenRows`.
   */
  readonly session?: AdapterSession;
}

/** A row written by `insert` or `insertMany`: its primary key, and the row as stored when the adapter returns it. */
export interface WrittenRow {
  readonly key: EntityKey;
  readonly row?: Row;
}

/** One row's own change, for `updateEach`. */
export interface KeyedChange {
  readonly key: EntityKey;
  /** The columns to set on that row (already validated and coerced by core). */
  readonly values: Row;
}

export interface UpdateArgs extends WriteArgs {
  /** Only a row in this view is updated: the statement's own condition, for a write with no pre-read. */
  readonly view?: RowView;
}

/** A function over the rows of a group: `count` counts them; the others read one column. */
export type AggregateFunction = 'count' | 'countDistinct' | 'sum' | 'avg' | 'min' | 'max';

/** A function over one own column of the rows of each group. */
export interface AggregateMeasure {
  readonly fn: Exclude<AggregateFunction, 'count'>;
  /** An own column property (core checked it is served and allowed this function). */
  readonly field: string;
}

/** What the groups are formed by. */
export interface GroupKey {
  /** An own column, or an owning to-one relation path (`author.country`). */
  readonly field: string;
  /**
   * On a relation path: the conditions the related row must meet to lend its value (its entity's `filter.apply`);
   * a row whose related row is missing, soft-deleted or outside them groups under null.
   */
  readonly scope?: FilterNode;
}

/** One term of a group order: the row count, a group key, or a measure asked for in the same call. */
export type AggregateOrderTerm =
  | { readonly kind: 'count' }
  | { readonly kind: 'group'; readonly field: string }
  | { readonly kind: 'measure'; readonly fn: AggregateMeasure['fn']; readonly field: string };

export interface AggregateSortKey {
  readonly by: AggregateOrderTerm;
  readonly direction: 'asc' | 'desc';
}

export interface AggregateArgs {
  readonly where?: FilterNode;
  readonly view: RowView;
  /** Empty: one group over the whole match set (answered even when nothing matches, with a count of 0). */
  readonly groupBy: readonly GroupKey[];
  /** The count of each group is always computed; these come beside it. */
  readonly measures: readonly AggregateMeasure[];
  /**
   * Nulls sort as larger than any value, as in `findMany`. The adapter ends the order with every group key
   * ascending, so pages over groups are stable.
   */
  readonly sort: readonly AggregateSortKey[];
  /** Over groups. Omitted: no limit. */
  readonly limit?: number;
  readonly offset?: number;
  /** Count the groups (in the page's own statement where the database can); when false `total` is null. */
  readonly count: boolean;
  readonly session?: AdapterSession;
}

/** One group: its key values, its row count and its measures. */
export interface AggregateGroup {
  /** Each group key's value by its field (`'author.country'`), as a row of that column holds it. */
  readonly key: Readonly<Record<string, unknown>>;
  /** How many rows the group holds. */
  readonly count: number;
  /**
   * Each measure by `<fn>.<field>`. `count`/`countDistinct`: a number. `min`/`max`: as a row of the column holds it.
   * `sum`: a decimal column's exact decimal string, a bigint column's integer string, an integer column's number (its
   * string past 2^53), a float column's number. `avg`: a number. Null where the group has no non-null value.
   */
  readonly values: Readonly<Record<string, unknown>>;
}

export interface AggregateResult {
  readonly groups: AggregateGroup[];
  /** How many groups the whole match set forms (1 without `groupBy`), or null when not counted. */
  readonly total: number | null;
}

/**
 * Rows are plain objects of the entity's column properties. Values handed to writes are already validated and
 * coerced by core; to-one relations arrive as `{ <relation>: { <targetKey>: value } }` or as a mapped FK property.
 * Every method maps driver errors to Svc exceptions (unique → SvcConflict, FK → unresolved relation or conflict, ...).
 * A unique violation's ConflictException sets `unique` to the fields of the violated set (empty when the database
 * names none): a batch traces it to the items that caused it.
 */
export interface RepositoryAdapter {
  readonly metadata: EntityMetadata;
  /**
   * `insert` and `update` hand back the row as stored in the same statement (`... RETURNING`), so a write needs no
   * read-back, and a write that is one statement needs no transaction of its own.
   */
  readonly returnsWrittenRows?: boolean;
  /**
   * `insert` hands back the row as stored in the same statement, where `update` may not (MariaDB has `INSERT ...
   * RETURNING` but no `UPDATE ... RETURNING`): a create needs no read-back. Implied by `returnsWrittenRows`.
   */
  readonly returnsInsertedRows?: boolean;
  /** Runs `work` in one database transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(work: (session: AdapterSession) => Promise<T>): Promise<T>;
  findMany(args: FindManyArgs): Promise<FindManyResult>;
  findOne(args: FindOneArgs): Promise<Row | null>;
  /**
   * Groups the rows `where` and `view` select and computes each group's count and measures in the database: one
   * `SELECT ... GROUP BY` for the page of groups, carrying their count when `count` asks for it (a page past the last
   * group counts them in a second statement).
   */
  aggregate(args: AggregateArgs): Promise<AggregateResult>;
  /** Inserts a row and returns its key, plus the stored row when the database can return it in the same statement. */
  insert(values: Row, args: WriteArgs): Promise<{ key: EntityKey; row?: Row }>;
  /**
   * Updates the row with `key` (in `view`, when given); `values` holds only the columns to change. With
   * `returnsWrittenRows` it resolves to the row as stored, or null when no such row exists; otherwise to undefined.
   */
  update(key: EntityKey, values: Row, args: UpdateArgs): Promise<Row | null | void>;
  /**
   * Inserts rows in as few statements as the database's bound-parameter limit allows (one multi-row `INSERT` per
   * chunk), and returns one entry per row in the order given (with the stored row where the database returns a
   * statement's rows in VALUES order, as PostgreSQL does).
   */
  insertMany(rows: readonly Row[], args: WriteArgs): Promise<WrittenRow[]>;
  /**
   * Sets the same `values` on every row of `keys`: `UPDATE ... WHERE <key> IN (...)`, chunked under the limits. With
   * `returnsWrittenRows` it may resolve to the rows as stored, in any order (a key it does not answer is read back);
   * otherwise, and when it does not, to undefined.
   */
  updateMany(keys: readonly EntityKey[], values: Row, args: WriteArgs): Promise<Row[] | void>;
  /**
   * Sets each row's own values in as few statements as the limits allow (one `UPDATE ... SET c = CASE <key> ...
   * END WHERE <key> IN (...)` per chunk); a column a change leaves out keeps its value on that row.
   */
  updateEach(changes: readonly KeyedChange[], args: WriteArgs): Promise<void>;
  /** Sets the soft-delete marker of every row of `keys` to now, chunked under the limits. */
  softDeleteMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void>;
  /** Removes every row of `keys` for good: `DELETE ... WHERE <key> IN (...)`, chunked under the limits. */
  removeMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void>;
  /** Sets the soft-delete marker to now. */
  softDelete(key: EntityKey, args: WriteArgs): Promise<void>;
  /** Clears the soft-delete marker. */
  restore(key: EntityKey, args: WriteArgs): Promise<void>;
  /** Removes the row for good. */
  remove(key: EntityKey, args: WriteArgs): Promise<void>;
  /**
   * Loads one relation for many parents with a fixed number of statements (independent of how many parents), and
   * returns one entry per parent in order: the target row or null for a to-one, the target rows for a to-many.
   */
  loadRelation?(args: LoadRelationArgs): Promise<(Row | Row[] | null)[]>;
  /**
   * This entity with `property`, a nullable date or date-time column, as its soft-delete marker in place of the ORM's
   * own (`delete.field`): views, soft delete and restore use it, and its metadata names it. Called at bootstrap.
   */
  withDeleteMarker?(property: string): RepositoryAdapter;
  /** Metadata of a related entity (a relation's target), for relation paths in filters and search. */
  metadataOf?(target: Function): EntityMetadata;
  /**
   * To-many relations (`relations.<name>.write`): attaches and detaches members of one parent by the target's key
   * (a one-to-many sets or clears the member's foreign key, a many-to-many writes join rows). Ids in `add` that match
   * no target row throw SVC_UNRESOLVED_RELATION naming them; core only passes ids not yet (or still) members.
   */
  updateRelation?(args: UpdateRelationArgs): Promise<void>;
  /**
   * An adapter that sends some reads to replicas keeps each caller's reads consistent with that caller's writes
   * through this; core calls it around every operation, on every surface. Omitted: every read sees every commit.
   */
  readonly routing?: ReadRouting;
}

/**
 * Read-your-writes for an adapter that reads from replicas: who calls, whether a call's reads were fresh, and when
 * its writes are readable everywhere reads go.
 */
export interface ReadRouting {
  /**
   * Runs one operation as the caller `context`'s: the statements `run` sends are that caller's. May add headers to
   * the answer (a consistency token the client sends back).
   */
  runAs<T extends { readonly headers: Readonly<Record<string, string>> }>(
    context: Readonly<Record<string, unknown>>,
    run: () => Promise<T>,
  ): Promise<T>;
  /**
   * Resolves once the writes this call committed are readable where reads go (bounded by the adapter), or is
   * undefined when there is nothing to wait for: realtime delivers the call's events after it.
   */
  readable(): Promise<void> | undefined;
  /** False when a read of this call may have missed a committed write (a replica behind): its result is not cached. */
  fresh(): boolean;
}

/** The port without its set-based batch writes: what a handler's `context.repository` offers, row by row. */
export type RowRepository = Omit<
  RepositoryAdapter,
  'insertMany' | 'updateMany' | 'updateEach' | 'softDeleteMany' | 'removeMany' | 'aggregate' | 'routing'
>;

export interface UpdateRelationArgs {
  readonly relation: string;
  readonly key: EntityKey;
  readonly add: readonly unknown[];
  readonly remove: readonly unknown[];
  readonly session: AdapterSession;
}

/** What `SvcOptions.infrastructure` is: it hands out one adapter per entity class. */
export interface SvcInfrastructure {
  readonly name: string;
  /**
   * The packages the infrastructure runs against, as installed, with the versions it supports (its ORM, for one).
   * `createSvc` refuses to start when one is outside its range or unreadable, naming them all in one error.
   * @default []
   */
  readonly platform?: readonly PlatformPackage[];
  /**
   * Called once by a framework binding before the first adapter is created, with a way to look up framework
   * providers (for example the TypeORM DataSource registered by @nestjs/typeorm).
   */
  bind?(resolver: InfrastructureResolver): void | Promise<void>;
  createAdapter(target: Function): RepositoryAdapter;
}

export interface InfrastructureResolver {
  resolve<T = unknown>(token: unknown): T;
}
