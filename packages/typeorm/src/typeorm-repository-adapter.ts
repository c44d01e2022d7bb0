/** RepositoryAdapter over a TypeORM DataSource: SQLite (better-sqlite3), PostgreSQL, MySQL and MariaDB. */
import { computedSelectSql, PAGE_ORDER, withComputedValues } from './computed-sql';
import type { EntityKey, Row } from '@svc/core';
import type {
  AdapterSession,
  AggregateArgs,
  AggregateResult,
  EntityMetadata,
  FindManyArgs,
  FindManyResult,
  FindOneArgs,
  KeyedChange,
  LoadRelationArgs,
  ReadRouting,
  RepositoryAdapter,
  UpdateRelationArgs,
  UpdateArgs,
  WriteArgs,
  WrittenRow,
} from '@svc/core/spi';
import type { DataSource, EntityManager } from 'typeorm';
import { bindSql, rawRows } from './bound-sql';
import { PAGE_TOTAL, pageTotalSql } from './page-total-sql';
import { EntityTable, useDeleteMarker } from './entity-table';
import { relationOrderTerms } from './relation-sort-sql';
import { keyToSql, rowsOfSql, SqlParameters } from './filter-sql';
import { mapDriverError, type StatementKind } from './map-driver-error';
import { runTransaction, WorkFailure } from './transaction-runner';
import { managerOf, TypeOrmSession } from './typeorm-session';
import { forBuilder, toEntityValues, withGeneratedUuids } from './write-values';
import { BatchWriter } from './batch-writes';
import { executeReturning } from './returning-statement';
import { RowInsert } from './insert-sql';
import { returnsRowsOfWrites } from './database-dialect';
import { loadRelation } from './relation-loader';
import { exactSpellingSql, orderTerms } from './keyset-sql';
import { aggregateSql, GROUP_TOTAL } from './aggregate-sql';
import { updateRelationMembers } from './relation-members';
import { lockSql, pageSql, TABLE_ALIAS, whereSql } from './select-sql';
import { replicaRouterOf, type ReplicaRouter } from './replica-router';

export class TypeOrmRepositoryAdapter implements RepositoryAdapter {
  readonly metadata: EntityMetadata;
  /** PostgreSQL and better-sqlite3 return written rows (`INSERT/UPDATE ... RETURNING`); the others are read back. */
  readonly returnsWrittenRows: boolean;
  readonly returnsInsertedRows: boolean;
  private readonly table: EntityTable;
  /** `"schema"."table" "svc_row"`: the FROM of every read this adapter writes itself. */
  private readonly fromSql: string;
  private readonly batch: BatchWriter;
  /**
   * The adapter's own one-row INSERT, where the database returns inserted rows, the entity needs nothing only TypeORM's
   * builder writes, and the DataSource has no subscribers (decided at construction).
   */
  private readonly rowInsert?: RowInsert;
  /** Where reads outside a transaction go, and what each caller's writes committed (replicas). */
  private readonly router: ReplicaRouter;
  /** Read-your-writes, when the DataSource reads from replicas. */
  readonly routing?: ReadRouting;

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: Function,
  ) {
    this.table = new EntityTable(dataSource, target);
    this.router = replicaRouterOf(dataSource);
    if (this.router.replicated) this.routing = this.router;
    this.metadata = this.table.metadata;
    const { dialect, driver } = this.table;
    // The DataSource's subscribers hear the writes TypeORM's builders run, and only those. On SQLite the builders
    // write no RETURNING (TypeORM 0.3), and a statement run with one added passes them by: with subscribers, SQLite
    // writes go through the builders and are read back.
    const subscribed = dataSource.subscribers.length > 0;
    // MariaDB has had INSERT ... RETURNING since 10.5, but no UPDATE ... RETURNING; MySQL has neither.
    // A virtual column is no column of the table, so a write's RETURNING cannot hold it: an updated row is read back,
    // and an insert's RETURNING gives its key only (`insertedRow`).
    const returning = returnsRowsOfWrites(String(driver.options.type)) && !(dialect === 'sqlite' && subscribed);
    this.returnsWrittenRows = returning && !this.table.computed;
    this.returnsInsertedRows = returning || (dialect === 'mysql' && driver.isReturningSqlSupported('insert'));
    this.fromSql = `${this.table.quotedPath} ${this.table.driver.escape(TABLE_ALIAS)}`;
    // With subscribers, the builder writes a create, as it tells them of it (beforeInsert, afterInsert).
    this.rowInsert = this.returnsInsertedRows && !subscribed ? RowInsert.of(this.table) : undefined;
    this.batch = new BatchWriter(
      this.table,
      target,
      { insertRowsInOrder: dialect === 'postgres', updateReturnsRows: this.returnsWrittenRows },
      (kind, run) => this.guard(kind, run),
    );
  }

  async transaction<T>(work: (session: AdapterSession) => Promise<T>): Promise<T> {
    try {
      const result = await runTransaction(this.dataSource, this.table.dialect, (manager) =>
        work(new TypeOrmSession(manager)),
      );
      await this.router.committed();
      return result;
    } catch (error) {
      if (error instanceof WorkFailure) throw error.error;
      throw mapDriverError(error, this.table, 'write');
    }
  }

  async findMany(args: FindManyArgs): Promise<FindManyResult> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const driver = this.table.driver;
    const params = new SqlParameters();
    const fromWhere = `${this.fromSql}${whereSql(this.table, { where: args.where, view: args.view }, params)}`;
    // On SQLite a limited page computes its computed fields for its own rows only: the page is read first, as a
    // derived table, and the fields are selected around it; SQLite would compute them for every match before its sort
    // and LIMIT. PostgreSQL and MySQL evaluate the select list after the LIMIT on their own (a window would undo it).
    const pagedComputed =
      this.table.dialect === 'sqlite' && (args.computed?.length ?? 0) > 0 && args.limit !== undefined && !args.lock;
    const selected = [
      this.table.selectListAs(TABLE_ALIAS) +
        (pagedComputed ? '' : computedSelectSql(this.table, TABLE_ALIAS, args.computed, params)),
    ];
    const exactKeys = args.exactKeys ?? [];
    exactKeys.forEach((property, index) => {
      const column = this.table.requireColumn(property);
      const spelling = exactSpellingSql(this.table.dialect, column, driver.normalizeType(column.orm));
      selected.push(`${spelling} AS ${driver.escape(`svc_exact_${index}`)}`);
    });
    const lock = lockSql(this.table, args);
    // The total rides along the page, unless it counts other conditions (a keyset page counts its filter alone) or
    // the page locks its rows: PostgreSQL refuses FOR UPDATE beside an aggregate or a window, so it is counted apart.
    const totalInPage = args.count && !('countWhere' in args) && lock === '';
    if (totalInPage) selected.push(`${pageTotalSql(this.table, args.sort, fromWhere)} AS ${driver.escape(PAGE_TOTAL)}`);
    const order: string[] = [];
    for (const sort of args.sort) {
      // The scopes of relation-path sort keys bind their values next to the filter's.
      const terms =
        this.table.relationOf(sort.field) !== undefined
          ? relationOrderTerms(this.table, TABLE_ALIAS, sort, params)
          : orderTerms(this.table, this.table.requireColumn(sort.field), sort.direction);
      for (const term of terms)
        order.push(term.nulls ? `${term.expression} ${term.order} ${term.nulls}` : `${term.expression} ${term.order}`);
    }
    const offset = args.offset !== undefined && args.offset > 0 ? args.offset : undefined;
    // MySQL has no OFFSET without LIMIT, so an offset alone gets the largest safe limit there.
    const limit =
      args.limit ?? (offset !== undefined && this.table.dialect === 'mysql' ? Number.MAX_SAFE_INTEGER : undefined);
    if (pagedComputed)
      selected.push(
        `ROW_NUMBER() OVER (${order.length > 0 ? `ORDER BY ${order.join(', ')}` : ''}) AS ${driver.escape(PAGE_ORDER)}`,
      );
    const pageQuery =
      `SELECT ${selected.join(', ')} FROM ${fromWhere}` +
      (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '') +
      pageSql(this.table.dialect, limit, offset, params) +
      lock;
    const alias = driver.escape(TABLE_ALIAS);
    const rowsQuery = bindSql(
      driver,
      pagedComputed
        ? `SELECT ${alias}.*${computedSelectSql(this.table, TABLE_ALIAS, args.computed, params, true)} FROM (${pageQuery}) ${alias} ORDER BY ${alias}.${driver.escape(PAGE_ORDER)}`
        : pageQuery,
      params.values,
    );
    const count = async (): Promise<number> => {
      const countParams = new SqlParameters();
      const where = whereSql(
        this.table,
        { where: 'countWhere' in args ? args.countWhere : args.where, view: args.view },
        countParams,
      );
      const sql = `SELECT COUNT(*) AS ${driver.escape('total')} FROM ${this.fromSql}${where}`;
      const [counted] = await rawRows(manager, bindSql(driver, sql, countParams.values));
      return Number(counted?.['total'] ?? 0);
    };
    return this.guard('read', async () => {
      // Inside a session both statements share one connection, so they run one after the other there.
      const [raw, counted] =
        !args.count || totalInPage
          ? [await rawRows(manager, rowsQuery), undefined]
          : args.session
            ? [await rawRows(manager, rowsQuery), await count()]
            : await Promise.all([rawRows(manager, rowsQuery), count()]);
      // A page past the last row carries no total: only then is it counted on its own (none before offset 0 either).
      const total = !args.count
        ? null
        : !totalInPage
          ? counted!
          : raw.length > 0
            ? Number(raw[0]![PAGE_TOTAL])
            : offset === undefined
              ? 0
              : await count();
      const rows = raw.map((row) => withComputedValues(this.table.hydrate(row), row, args.computed));
      if (exactKeys.length === 0) return { rows, total };
      const exact = raw.map((row) =>
        Object.fromEntries(exactKeys.map((key, index) => [key, spelled(row[`svc_exact_${index}`])])),
      );
      return { rows, total, exact };
    });
  }

  async findOne(args: FindOneArgs): Promise<Row | null> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const params = new SqlParameters();
    const where = whereSql(this.table, { key: args.key, where: args.where, view: args.view }, params);
    const lock = lockSql(this.table, args);
    const query = bindSql(
      this.table.driver,
      `SELECT ${this.table.selectListAs(TABLE_ALIAS)}${computedSelectSql(this.table, TABLE_ALIAS, args.computed, params)} FROM ${this.fromSql}${where}${lock}`,
      params.values,
    );
    return this.guard('read', async () => {
      const [raw] = await rawRows(manager, query);
      return raw === undefined ? null : withComputedValues(this.table.hydrate(raw), raw, args.computed);
    });
  }

  async aggregate(args: AggregateArgs): Promise<AggregateResult> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const driver = this.table.driver;
    const params = new SqlParameters();
    const where = whereSql(this.table, { where: args.where, view: args.view }, params);
    const statements = aggregateSql(this.table, args, { from: this.fromSql, where, alias: TABLE_ALIAS }, params);
    const offset = args.offset !== undefined && args.offset > 0 ? args.offset : undefined;
    // As in findMany: MySQL takes no OFFSET without a LIMIT.
    const limit =
      args.limit ?? (offset !== undefined && this.table.dialect === 'mysql' ? Number.MAX_SAFE_INTEGER : undefined);
    const groupsQuery = bindSql(
      driver,
      statements.groups + pageSql(this.table.dialect, limit, offset, params),
      params.values,
    );
    /**
     * The page carries the groups' count where the database counts them in the page (a window); else a page that is
     * neither empty nor full tells it (the groups before it and its own). Only a full page there, or a page past the
     * last group (never one at offset 0), counts them on its own.
     */
    const groupTotal = async (raw: Record<string, unknown>[]): Promise<number> => {
      if (raw.length > 0 && raw[0]![GROUP_TOTAL] !== undefined) return Number(raw[0]![GROUP_TOTAL]);
      if (raw.length > 0 && (limit === undefined || raw.length < limit)) return (offset ?? 0) + raw.length;
      if (raw.length === 0 && offset === undefined) return 0;
      const [counted] = await rawRows(manager, bindSql(driver, statements.count!, params.values));
      return Number(counted?.[GROUP_TOTAL] ?? 0);
    };
    return this.guard('read', async () => {
      const raw = await rawRows(manager, groupsQuery);
      if (!args.count) return { groups: raw.map(statements.read), total: null };
      if (statements.count === undefined) return { groups: raw.map(statements.read), total: 1 };
      return { groups: raw.map(statements.read), total: await groupTotal(raw) };
    });
  }

  async insert(values: Row, args: WriteArgs): Promise<{ key: EntityKey; row?: Row }> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const entityValues = withGeneratedUuids(toEntityValues(values, this.table), this.table);
    return this.written(args, async () => {
      if (this.rowInsert) {
        const [sql, bound] = this.rowInsert.statement(entityValues);
        return this.insertedRow((await manager.query(sql, bound)) as Record<string, unknown>[]);
      }
      const query = manager
        .createQueryBuilder()
        .insert()
        .into(this.target, this.table.builderInsertColumns as string[] | undefined)
        .values(forBuilder(entityValues, this.table))
        .updateEntity(false);
      if (this.returnsInsertedRows) {
        return this.insertedRow(await executeReturning(this.table, manager, query));
      }
      const result = await query.execute();
      return { key: this.keyAfterInsert(entityValues, result.raw) };
    });
  }

  /**
   * Runs a write's statement and maps what the driver throws; a write outside any session commits on its own, so
   * it is recorded as its caller's then (`transaction` records the others once they commit).
   */
  private async written<T>(args: WriteArgs, run: () => Promise<T>, kind: StatementKind = 'write'): Promise<T> {
    const result = await this.guard(kind, run);
    if (!args.session) await this.router.committed();
    return result;
  }

  /** The key and row of an insert's `RETURNING *`; the key only where a virtual column is left to a read back. */
  private insertedRow([stored]: Record<string, unknown>[]): { key: EntityKey; row?: Row } {
    const row = this.table.hydrate(stored ?? {});
    return this.table.computed ? { key: this.keyOf(row) } : { key: this.keyOf(row), row };
  }

  async update(key: EntityKey, values: Row, args: UpdateArgs): Promise<Row | null | void> {
    const entityValues = toEntityValues(values, this.table);
    if (Object.keys(entityValues).length === 0) {
      if (!this.returnsWrittenRows) return;
      // Nothing to set: the row as it is, as an update that changed nothing would return it.
      return this.findOne({ key, view: args.view ?? 'all', session: args.session });
    }
    return this.updateByKey(key, entityValues, args, this.returnsWrittenRows);
  }

  async softDelete(key: EntityKey, args: WriteArgs): Promise<void> {
    await this.updateByKey(key, { [this.requireMarker().property]: () => 'CURRENT_TIMESTAMP' }, args);
  }

  async restore(key: EntityKey, args: WriteArgs): Promise<void> {
    await this.updateByKey(key, { [this.requireMarker().property]: null }, args);
  }

  async remove(key: EntityKey, args: WriteArgs): Promise<void> {
    const params = new SqlParameters();
    const condition = keyToSql(key, this.table, params);
    const manager = managerOf(args.session, this.dataSource.manager);
    const query = manager.createQueryBuilder().delete().from(this.target).where(condition, params.values);
    await this.written(args, () => query.execute(), 'delete');
  }

  async insertMany(rows: readonly Row[], args: WriteArgs): Promise<WrittenRow[]> {
    if (rows.length === 0) return [];
    const written = await this.inTransaction(args, (manager) => this.batch.insert(manager, rows));
    // The rows a RETURNING gave lack a virtual column's value: their keys only, and the caller reads them back.
    return this.table.computed ? written.map(({ key }) => ({ key })) : written;
  }

  async updateMany(keys: readonly EntityKey[], values: Row, args: WriteArgs): Promise<Row[] | void> {
    if (keys.length === 0) return;
    const stored = await this.inTransaction(args, (manager) => this.batch.update(manager, keys, values));
    return stored?.map((raw) => this.table.hydrate(raw));
  }

  async updateEach(changes: readonly KeyedChange[], args: WriteArgs): Promise<void> {
    if (changes.length === 0) return;
    await this.inTransaction(args, (manager) => this.batch.updateEach(manager, changes));
  }

  async softDeleteMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void> {
    if (keys.length === 0) return;
    const marker = this.requireMarker().property;
    await this.inTransaction(args, (manager) => this.batch.softDelete(manager, keys, marker));
  }

  async removeMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void> {
    if (keys.length === 0) return;
    await this.inTransaction(args, (manager) => this.batch.remove(manager, keys));
  }

  async updateRelation(args: UpdateRelationArgs): Promise<void> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const guard = <T>(kind: StatementKind, run: () => Promise<T>) => this.guard(kind, run);
    await updateRelationMembers({ manager, table: this.table, target: this.target, guard }, args);
  }

  /** This entity with `property`, a nullable date or date-time column, as its soft-delete marker (`delete.field`). */
  withDeleteMarker(property: string): RepositoryAdapter {
    useDeleteMarker(this.dataSource, this.target, property);
    return new TypeOrmRepositoryAdapter(this.dataSource, this.target);
  }

  metadataOf(target: Function): EntityMetadata {
    return this.table.tableOf(target).metadata;
  }

  async loadRelation(args: LoadRelationArgs): Promise<(Row | Row[] | null)[]> {
    const load = (manager: EntityManager) =>
      loadRelation({ manager, table: this.table, tableOf: (target) => this.table.tableOf(target) }, args);
    // Outside a session all of its statements read where the router sends them, on one connection.
    return this.guard('read', () =>
      args.session ? load(managerOf(args.session, this.dataSource.manager)) : this.router.read(load),
    );
  }

  /**
   * Runs a set-based write on the session's manager; without a session, in a transaction of its own, so a write of
   * several statements (chunks) is all or nothing either way.
   */
  private inTransaction<T>(args: WriteArgs, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (args.session) return work(managerOf(args.session, this.dataSource.manager));
    return this.transaction((session) => work(managerOf(session, this.dataSource.manager)));
  }

  /** `UPDATE ... WHERE <key> [AND <view>]`, returning the stored row (or null when none matched) when asked. */
  private async updateByKey(
    key: EntityKey,
    values: Record<string, unknown>,
    args: UpdateArgs,
    returning = false,
  ): Promise<Row | null | void> {
    const params = new SqlParameters();
    const conditions = [keyToSql(key, this.table, params), ...rowsOfSql(this.table, args.view ?? 'all', params)];
    const manager = managerOf(args.session, this.dataSource.manager);
    const query = manager
      .createQueryBuilder()
      .update(this.target)
      .set(forBuilder(values, this.table))
      .where(conditions.join(' AND '), params.values)
      .updateEntity(false);
    if (!returning) {
      await this.written(args, () => query.execute());
      return;
    }
    const [raw] = await this.written(args, () => executeReturning(this.table, manager, query));
    return raw === undefined ? null : this.table.hydrate(raw);
  }

  /** Runs a statement and maps whatever the driver throws. */
  private async guard<T>(statement: StatementKind, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw mapDriverError(error, this.table, statement);
    }
  }

  private requireMarker(): { property: string } {
    const marker = this.table.marker;
    if (marker) return marker;
    throw new Error(`@svc/typeorm: ${this.table.name} has no delete-date column, so it cannot be soft-deleted.`);
  }

  private keyOf(row: Row): EntityKey {
    return Object.fromEntries(this.table.primary.map((column) => [column.property, row[column.property]]));
  }

  /** The key from the written values, plus the auto-increment id the driver reports (SQLite lastID, MySQL insertId). */
  private keyAfterInsert(values: Row, raw: unknown): EntityKey {
    const key: Record<string, unknown> = {};
    for (const column of this.table.primary) {
      key[column.property] = values[column.property] ?? generatedId(raw);
    }
    return key;
  }
}

function generatedId(raw: unknown): unknown {
  const id = typeof raw === 'object' && raw !== null ? (raw as { insertId?: unknown }).insertId : raw;
  return typeof id === 'bigint' && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id;
}

function spelled(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
