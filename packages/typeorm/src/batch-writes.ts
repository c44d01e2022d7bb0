/** The adapter's set-based writes: multi-row INSERTs and keyed UPDATEs and DELETEs, chunked under each database's limits. */
import type { EntityKey, Row } from '@svc/core';
import type { KeyedChange, WrittenRow } from '@svc/core/spi';
import type { DataSource, EntityManager } from 'typeorm';
import { bindSql } from './bound-sql';
import {
  CASE_ROWS_PER_STATEMENT,
  caseUpdateParameters,
  caseUpdateSql,
  columnWrites,
  keySetSql,
  ROWS_PER_STATEMENT,
  PARAMETER_BUDGET,
  type RowWrites,
} from './batch-sql';
import type { EntityTable, TableColumn } from './entity-table';
import { SqlParameters } from './filter-sql';
import { executeReturning } from './returning-statement';
import type { StatementKind } from './map-driver-error';
import { forBuilder, toEntityValues, withGeneratedUuids } from './write-values';

/** Runs one statement and maps what the driver throws (the adapter's own guard). */
export type StatementGuard = <T>(statement: StatementKind, run: () => Promise<T>) => Promise<T>;

/** Which of the database's set-based writes answer the rows they stored. */
export interface BatchReturns {
  /** A multi-row INSERT's RETURNING rows come in VALUES order (PostgreSQL; SQLite promises no order). */
  readonly insertRowsInOrder: boolean;
  /** An UPDATE returns the rows it changed (PostgreSQL, better-sqlite3; not node-sqlite3, MariaDB or MySQL). */
  readonly updateReturnsRows: boolean;
}

/** How an INSERT hands back what it wrote: the stored rows, the keys alone, or only the driver's insert id. */
type Returned = 'rows' | 'keys' | 'insertId';

/** `@@auto_increment_increment` per MySQL/MariaDB DataSource, read once: the step between the ids of one INSERT. */
const incrementSteps = new WeakMap<DataSource, Promise<number>>();

/** The set-based writes of one entity; every method runs on the manager it is given (the caller's transaction). */
export class BatchWriter {
  /** The auto-increment key column, whose values the database picks; absent for uuid and natural keys. */
  private readonly increment?: TableColumn;
  /** Rows one INSERT carries: the parameter budget over the columns TypeORM may bind for each row, at most 1,000. */
  private readonly rowsPerInsert: number;

  constructor(
    private readonly table: EntityTable,
    private readonly target: Function,
    private readonly returns: BatchReturns,
    private readonly guard: StatementGuard,
  ) {
    this.increment = table.primary.find(
      (column) => column.orm.isGenerated && column.orm.generationStrategy === 'increment',
    );
    const columns = table.orm.columns.filter((column) => column.isInsert).length;
    const byBudget = Math.floor(PARAMETER_BUDGET[table.dialect] / Math.max(1, columns));
    this.rowsPerInsert = Math.max(1, Math.min(ROWS_PER_STATEMENT, byBudget));
  }

  /**
   * Multi-row INSERTs through TypeORM's builder, as `insert` writes one row: every statement lists every insertable
   * column, and a value a row leaves out is DEFAULT (PostgreSQL, MySQL/MariaDB) or the column's declared default, else
   * NULL (SQLite, which has no DEFAULT in VALUES), so rows that set different columns share a statement.
   */
  async insert(manager: EntityManager, rows: readonly Row[]): Promise<WrittenRow[]> {
    const values = rows.map((row) => withGeneratedUuids(toEntityValues(row, this.table), this.table));
    const returned: Returned = this.returns.insertRowsInOrder
      ? 'rows'
      : this.increment && this.table.driver.isReturningSqlSupported('insert')
        ? 'keys'
        : 'insertId';
    const written: WrittenRow[] = [];
    for (const group of this.insertGroups(values, returned)) {
      for (let start = 0; start < group.length; start += this.rowsPerInsert) {
        const indices = group.slice(start, start + this.rowsPerInsert);
        const chunk = indices.map((index) => values[index]!);
        const entries = await this.insertChunk(manager, chunk, returned);
        indices.forEach((index, at) => (written[index] = entries[at]!));
      }
    }
    return written;
  }

  /**
   * Sets the same values on every keyed row, through TypeORM's UPDATE builder (the update date and version too). Where
   * an UPDATE can return its rows, it answers them as stored (raw, in no set order); otherwise, and when there is
   * nothing to set, undefined.
   */
  async update(
    manager: EntityManager,
    keys: readonly EntityKey[],
    values: Row,
  ): Promise<Record<string, unknown>[] | undefined> {
    const entityValues = toEntityValues(values, this.table);
    if (Object.keys(entityValues).length === 0) return undefined;
    return this.updateKeys(manager, keys, entityValues, this.returns.updateReturnsRows);
  }

  /** Sets the soft-delete marker of every keyed row to now, as `softDelete` does one row. */
  async softDelete(manager: EntityManager, keys: readonly EntityKey[], marker: string): Promise<void> {
    await this.updateKeys(manager, keys, { [marker]: () => 'CURRENT_TIMESTAMP' });
  }

  /** Deletes every keyed row, as `remove` does one row. */
  async remove(manager: EntityManager, keys: readonly EntityKey[]): Promise<void> {
    for (let start = 0; start < keys.length; start += ROWS_PER_STATEMENT) {
      const params = new SqlParameters();
      const where = keySetSql(keys.slice(start, start + ROWS_PER_STATEMENT), this.table, params);
      const query = manager.createQueryBuilder().delete().from(this.target).where(where, params.values);
      await this.guard('delete', () => query.execute());
    }
  }

  /**
   * Each row's own values, one `UPDATE ... SET c = CASE ...` per chunk of up to 200 rows (`caseUpdateSql`). Changes of one key are
   * merged, a later value winning, as successive updates would leave the row. A change that sets a key column runs
   * as its own UPDATE: MySQL evaluates SET assignments left to right, so a CASE after it would no longer find the key.
   */
  async updateEach(manager: EntityManager, changes: readonly KeyedChange[]): Promise<void> {
    const byKey = new Map<string, { key: EntityKey; values: Row }>();
    for (const { key, values } of changes) {
      const id = JSON.stringify(Object.entries(key), (_name, value: unknown) =>
        typeof value === 'bigint' ? String(value) : value,
      );
      const merged = byKey.get(id);
      byKey.set(id, { key, values: { ...merged?.values, ...toEntityValues(values, this.table) } });
    }
    const keyColumns = new Set(this.table.primary.map((column) => column.quoted));
    const rows: RowWrites[] = [];
    for (const { key, values } of byKey.values()) {
      const writes = columnWrites(values, this.table);
      if (writes.some((write) => keyColumns.has(write.column))) await this.updateKeys(manager, [key], values);
      else if (writes.length > 0) rows.push({ key, writes });
    }
    for (const run of runsWithin(rows, PARAMETER_BUDGET[this.table.dialect])) {
      const params = new SqlParameters();
      const [sql, bound] = bindSql(this.table.driver, caseUpdateSql(this.table, run, params), params.values);
      await this.guard('write', () => manager.query(sql, bound));
    }
  }

  /** `UPDATE ... WHERE <key> IN (...)` per chunk of keys; with `returning`, the rows each statement stored. */
  private async updateKeys(
    manager: EntityManager,
    keys: readonly EntityKey[],
    values: Row,
    returning = false,
  ): Promise<Record<string, unknown>[] | undefined> {
    const stored: Record<string, unknown>[] | undefined = returning ? [] : undefined;
    for (let start = 0; start < keys.length; start += ROWS_PER_STATEMENT) {
      const params = new SqlParameters();
      const where = keySetSql(keys.slice(start, start + ROWS_PER_STATEMENT), this.table, params);
      const query = manager
        .createQueryBuilder()
        .update(this.target)
        .set(forBuilder(values, this.table))
        .where(where, params.values)
        .updateEntity(false);
      if (stored) stored.push(...(await this.guard('write', () => executeReturning(this.table, manager, query))));
      else await this.guard('write', () => query.execute());
    }
    return stored;
  }

  /**
   * The row indices in the groups they are inserted by, each in input order. Where ids are counted from the driver's
   * insert id, rows that give their auto-increment key are inserted apart from those that leave it to the database:
   * an explicit id among generated ones would break the count.
   */
  private insertGroups(values: readonly Row[], returned: Returned): number[][] {
    const all = values.map((_, index) => index);
    const increment = this.increment;
    if (returned !== 'insertId' || !increment) return [all];
    const gives = (index: number) => values[index]![increment.property] != null;
    return [all.filter((index) => !gives(index)), all.filter(gives)].filter((group) => group.length > 0);
  }

  private async insertChunk(manager: EntityManager, chunk: Row[], returned: Returned): Promise<WrittenRow[]> {
    const rows = chunk.map((values) => forBuilder(values, this.table));
    const query = manager
      .createQueryBuilder()
      .insert()
      .into(this.target, this.table.builderInsertColumns as string[] | undefined)
      .values(rows)
      .updateEntity(false);
    // PostgreSQL and MariaDB (10.5+) return the rows of a VALUES list in its order: they insert the rows one by one
    // as listed and emit each as it is inserted. TypeORM's own multi-row save relies on the same order.
    if (returned === 'rows') query.returning('*');
    if (returned === 'keys') query.returning(this.table.primary.map((column) => column.quoted).join(', '));
    const result = await this.guard('write', () => query.execute());
    if (returned !== 'insertId') {
      const raw = result.raw as Record<string, unknown>[];
      if (!Array.isArray(raw) || raw.length !== chunk.length) {
        throw new Error(`@svc/typeorm: an INSERT of ${chunk.length} ${this.table.name} rows returned ${raw?.length}.`);
      }
      if (returned === 'keys') return raw.map((stored, at) => ({ key: this.keyOf(chunk[at]!, stored) }));
      return raw.map((stored) => {
        const row = this.table.hydrate(stored);
        return { key: this.keyOf(row), row };
      });
    }
    // A chunk gives every row's key, or none of them gives its auto-increment id (`insertGroups`).
    const increment = this.increment;
    const counted = increment !== undefined && chunk[0]![increment.property] == null;
    if (!counted) return chunk.map((values) => ({ key: this.keyOf(values) }));
    const first = this.firstId(result.raw, chunk.length);
    const step = chunk.length > 1 && this.table.dialect === 'mysql' ? await this.incrementStep(manager) : 1;
    return chunk.map((values, at) => ({
      key: { ...this.keyOf(values), [increment.property]: idPlus(first, at * step) },
    }));
  }

  /**
   * The id the database gave the chunk's first row. SQLite reports the last row's rowid: each row of one INSERT takes
   * the largest rowid (or AUTOINCREMENT's sequence) plus one, in VALUES order, under the writer lock, so the ids are
   * consecutive. MySQL/MariaDB report the first row's id: InnoDB allocates the ids of an INSERT whose row count it
   * knows beforehand in one consecutive run, in every `innodb_autoinc_lock_mode` (1, "consecutive", is MariaDB's
   * default and MySQL 5.7's; MySQL 8's "interleaved" breaks runs only for INSERT ... SELECT and LOAD DATA), spaced
   * by `auto_increment_increment`. TypeORM's own multi-row save counts ids the same way.
   */
  private firstId(raw: unknown, rows: number): number | bigint {
    if (this.table.dialect === 'sqlite') return idPlus(asId(raw), -(rows - 1));
    return asId((raw as { insertId?: unknown } | undefined)?.insertId);
  }

  /** `@@auto_increment_increment`: 1 but on multi-primary setups (Galera, group replication); read once per DataSource. */
  private incrementStep(manager: EntityManager): Promise<number> {
    const dataSource = manager.connection;
    let step = incrementSteps.get(dataSource);
    if (!step) {
      step = this.guard('read', () => manager.query('SELECT @@auto_increment_increment AS step')).then(
        (rows: { step: unknown }[]) => Number(rows[0]?.step ?? 1),
      );
      incrementSteps.set(dataSource, step);
      step.catch(() => incrementSteps.delete(dataSource));
    }
    return step;
  }

  /** The primary key of `row`, each column taken from `stored` (a raw row, by column name) where given. */
  private keyOf(row: Row, stored?: Record<string, unknown>): EntityKey {
    return Object.fromEntries(
      this.table.primary.map((column) => [
        column.property,
        stored ? column.hydrate(stored[column.databaseName]) : row[column.property],
      ]),
    );
  }
}

/** `rows` in runs of at most 200 whose parameters fit `budget`; a row over it alone makes a run of its own. */
function runsWithin(rows: readonly RowWrites[], budget: number): RowWrites[][] {
  const runs: RowWrites[][] = [];
  let run: RowWrites[] = [];
  let used = 0;
  for (const row of rows) {
    const cost = caseUpdateParameters(row);
    if (run.length > 0 && (run.length === CASE_ROWS_PER_STATEMENT || used + cost > budget)) {
      runs.push(run);
      run = [];
      used = 0;
    }
    run.push(row);
    used += cost;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

function asId(value: unknown): number | bigint {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  throw new Error(`@svc/typeorm: the driver reported no inserted id (${String(value)}).`);
}

/** `id + delta`, as a number while it is a safe integer. */
function idPlus(id: number | bigint, delta: number): number | bigint {
  const sum = BigInt(id) + BigInt(delta);
  return sum <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(sum) : sum;
}
