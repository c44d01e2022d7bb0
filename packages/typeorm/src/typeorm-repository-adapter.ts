/** RepositoryAdapter over a TypeORM DataSource: SQLite (better-sqlite3), PostgreSQL, MySQL and MariaDB. */
import type {
  AdapterSession,
  EntityKey,
  EntityMetadata,
  FindManyArgs,
  FindManyResult,
  FindOneArgs,
  FilterNode,
  LoadRelationArgs,
  RepositoryAdapter,
  Row,
  RowView,
  UpdateRelationArgs,
  UpdateArgs,
  WriteArgs,
} from '@svc/core';
import { ConflictException, UnresolvedRelationException } from '@svc/core';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { EntityTable, useDeleteMarker } from './entity-table';
import { relationOrderTerms } from './relation-sort-sql';
import { filterToSql, keyToSql, SqlParameters } from './filter-sql';
import { mapDriverError, type StatementKind } from './map-driver-error';
import { runTransaction, WorkFailure } from './transaction-runner';
import { managerOf, TypeOrmSession } from './typeorm-session';
import { toEntityValues } from './write-values';
import { loadRelation } from './relation-loader';
import { exactSpellingSql, orderTerms } from './keyset-sql';

/**
 * Alias of the entity's table in SELECTs. Its own columns are referenced unqualified; only the correlated subquery of
 * a relation-path sort names it, to reach the root's join column.
 */
const TABLE_ALIAS = 'svc_row';

interface SelectArgs {
  readonly manager: EntityManager;
  readonly where?: FilterNode;
  readonly key?: EntityKey;
  readonly view: RowView;
  /** Where the conditions bind their values, when the caller binds more (sort scopes) into the same statement. */
  readonly params?: SqlParameters;
}

/** Members written or looked up per statement. */
const MEMBER_CHUNK = 200;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

export class TypeOrmRepositoryAdapter implements RepositoryAdapter {
  readonly metadata: EntityMetadata;
  /** PostgreSQL returns written rows (`INSERT/UPDATE ... RETURNING`); the others are read back. */
  readonly returnsWrittenRows: boolean;
  private readonly table: EntityTable;

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: Function,
  ) {
    this.table = new EntityTable(dataSource, target);
    this.metadata = this.table.metadata;
    this.returnsWrittenRows = this.table.dialect === 'postgres';
  }

  async transaction<T>(work: (session: AdapterSession) => Promise<T>): Promise<T> {
    try {
      return await runTransaction(this.dataSource, this.table.dialect, (manager) => work(new TypeOrmSession(manager)));
    } catch (error) {
      if (error instanceof WorkFailure) throw error.error;
      throw mapDriverError(error, this.table, 'write');
    }
  }

  async findMany(args: FindManyArgs): Promise<FindManyResult> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const params = new SqlParameters();
    const rowsQuery = this.select({ manager, where: args.where, view: args.view, params }).select(
      this.table.selectList,
    );
    const exactKeys = args.exactKeys ?? [];
    exactKeys.forEach((property, index) => {
      const column = this.table.requireColumn(property);
      rowsQuery.addSelect(
        exactSpellingSql(this.table.dialect, column, this.table.driver.normalizeType(column.orm)),
        `svc_exact_${index}`,
      );
    });
    for (const sort of args.sort) {
      const terms = sort.field.includes('.')
        ? relationOrderTerms(this.table, TABLE_ALIAS, sort, params)
        : orderTerms(this.table, this.table.requireColumn(sort.field), sort.direction);
      for (const term of terms) rowsQuery.addOrderBy(term.expression, term.order, term.nulls);
    }
    // The scopes of relation-path sort keys bind their values next to the filter's.
    rowsQuery.setParameters(params.values);
    const offset = args.offset !== undefined && args.offset > 0 ? args.offset : undefined;
    // MySQL has no OFFSET without LIMIT; TypeORM refuses it there, so an offset alone gets the largest safe limit.
    const limit =
      args.limit ?? (offset !== undefined && this.table.dialect === 'mysql' ? Number.MAX_SAFE_INTEGER : undefined);
    if (limit !== undefined) rowsQuery.limit(limit);
    if (offset !== undefined) rowsQuery.offset(offset);
    const countQuery = args.count
      ? this.select({ manager, where: 'countWhere' in args ? args.countWhere : args.where, view: args.view }).select(
          'COUNT(1)',
          'total',
        )
      : undefined;
    return this.guard('read', async () => {
      // Inside a session both statements share one connection, so they run one after the other there.
      const [raw, counted] = !countQuery
        ? [await rowsQuery.getRawMany(), undefined]
        : args.session
          ? [await rowsQuery.getRawMany(), await countQuery.getRawOne()]
          : await Promise.all([rowsQuery.getRawMany(), countQuery.getRawOne()]);
      const total = countQuery ? Number((counted as { total?: unknown } | undefined)?.total ?? 0) : null;
      const rows = raw.map((row) => this.table.hydrate(row));
      if (exactKeys.length === 0) return { rows, total };
      const exact = raw.map((row) =>
        Object.fromEntries(exactKeys.map((key, index) => [key, spelled(row[`svc_exact_${index}`])])),
      );
      return { rows, total, exact };
    });
  }

  async findOne(args: FindOneArgs): Promise<Row | null> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const query = this.select({ manager, key: args.key, where: args.where, view: args.view }).select(
      this.table.selectList,
    );
    if (args.lock && args.session && this.table.dialect !== 'sqlite') query.setLock('pessimistic_write');
    return this.guard('read', async () => {
      const raw = await query.getRawOne<Record<string, unknown>>();
      return raw === undefined ? null : this.table.hydrate(raw);
    });
  }

  async insert(values: Row, args: WriteArgs): Promise<{ key: EntityKey; row?: Row }> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const entityValues = this.withGeneratedUuids(toEntityValues(values, this.table));
    const query = manager.createQueryBuilder().insert().into(this.target).values(entityValues).updateEntity(false);
    const returning = this.returnsWrittenRows;
    if (returning) query.returning('*');
    return this.guard('write', async () => {
      const result = await query.execute();
      if (returning) {
        const row = this.table.hydrate((result.raw as Record<string, unknown>[])[0] ?? {});
        return { key: this.keyOf(row), row };
      }
      return { key: this.keyAfterInsert(entityValues, result.raw) };
    });
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
    await this.guard('delete', () => query.execute());
  }

  async updateRelation(args: UpdateRelationArgs): Promise<void> {
    const manager = managerOf(args.session, this.dataSource.manager);
    const relation = this.table.orm.findRelationWithPropertyPath(args.relation);
    if (!relation || !(relation.isOneToMany || relation.isManyToMany))
      throw new Error(`@svc/typeorm: '${args.relation}' is not a to-many relation of ${this.table.name}.`);
    const target = this.table.tableOf(relation.inverseEntityMetadata.target as Function);
    const [targetKey] = target.primary;
    if (relation.isOneToMany && args.remove.length > 0 && relation.inverseRelation?.isNullable === false) {
      throw new ConflictException(
        `A ${target.name} cannot be detached from ${this.table.name}.${args.relation}: its ${relation.inverseRelation.propertyPath} is required. Delete it, or attach it elsewhere.`,
      );
    }
    if (args.add.length > 0) {
      const present = new Set<string>();
      for (const ids of chunks(args.add, MEMBER_CHUNK)) {
        const params = new SqlParameters();
        const found = await this.guard('read', () =>
          manager
            .createQueryBuilder()
            .select(`${targetKey!.quoted}`, 'svc_key')
            .from(relation.inverseEntityMetadata.target, 'svc_target')
            .where(`${targetKey!.quoted} IN (${ids.map((id) => params.bind(id)).join(', ')})`, params.values)
            .getRawMany<{ svc_key: unknown }>(),
        );
        for (const row of found) present.add(String(row.svc_key));
      }
      const missing = args.add.filter((id) => !present.has(String(id)));
      if (missing.length > 0) {
        throw new UnresolvedRelationException(
          `${args.relation}: no ${target.name} with ${targetKey!.property} ${missing.map((id) => JSON.stringify(id)).join(', ')}. Use ids that exist.`,
        );
      }
    }
    // In chunks: TypeORM writes a removal as one OR of key pairs and an addition as one multi-row INSERT, which past a
    // few hundred members would outgrow SQLite's expression depth and any database's bound-parameter limit.
    const builder = () => manager.createQueryBuilder().relation(this.target, args.relation).of(args.key);
    for (const ids of chunks(args.remove, MEMBER_CHUNK)) await this.guard('write', () => builder().remove([...ids]));
    for (const ids of chunks(args.add, MEMBER_CHUNK)) await this.guard('write', () => builder().add([...ids]));
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
    const manager = managerOf(args.session, this.dataSource.manager);
    return this.guard('read', () =>
      loadRelation({ manager, table: this.table, tableOf: (target) => this.table.tableOf(target) }, args),
    );
  }

  /** A SELECT on the entity's table with the key, filter and view conditions, bypassing TypeORM's own soft-delete filter. */
  private select(args: SelectArgs): SelectQueryBuilder<object> {
    const params = args.params ?? new SqlParameters();
    const conditions: string[] = [];
    if (args.key) conditions.push(keyToSql(args.key, this.table, params));
    if (args.where) conditions.push(filterToSql(args.where, this.table, params));
    const marker = this.table.marker;
    if (marker && args.view === 'live') conditions.push(`${marker.quoted} IS NULL`);
    if (marker && args.view === 'deleted') conditions.push(`${marker.quoted} IS NOT NULL`);
    const query = args.manager.createQueryBuilder().from(this.target, TABLE_ALIAS).withDeleted();
    if (conditions.length > 0) query.where(conditions.join(' AND '), params.values);
    return query;
  }

  /** `UPDATE ... WHERE <key> [AND <view>]`, returning the stored row (or null when none matched) when asked. */
  private async updateByKey(
    key: EntityKey,
    values: Record<string, unknown>,
    args: UpdateArgs,
    returning = false,
  ): Promise<Row | null | void> {
    const params = new SqlParameters();
    const conditions = [keyToSql(key, this.table, params)];
    const marker = this.table.marker;
    if (marker && args.view === 'live') conditions.push(`${marker.quoted} IS NULL`);
    if (marker && args.view === 'deleted') conditions.push(`${marker.quoted} IS NOT NULL`);
    const manager = managerOf(args.session, this.dataSource.manager);
    const query = manager
      .createQueryBuilder()
      .update(this.target)
      .set(values)
      .where(conditions.join(' AND '), params.values)
      .updateEntity(false);
    if (returning) query.returning('*');
    const result = await this.guard('write', () => query.execute());
    if (!returning) return;
    const [raw] = (result.raw as Record<string, unknown>[] | undefined) ?? [];
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

  /** Client-side uuids where the database does not generate them, so the key is known without a re-read. */
  private withGeneratedUuids(values: Row): Row {
    for (const column of this.table.primary) {
      const generatedUuid = column.orm.isGenerated && column.orm.generationStrategy === 'uuid';
      if (generatedUuid && values[column.property] === undefined && this.table.dialect !== 'postgres') {
        values[column.property] = globalThis.crypto.randomUUID();
      }
    }
    return values;
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
