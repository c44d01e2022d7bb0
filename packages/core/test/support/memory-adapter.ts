/** An in-memory RepositoryAdapter over an array of rows, for core's unit tests; metadata is given by hand. */
import type { EntityKey, FilterNode, Row } from '@svc/core';
import type {
  AdapterSession,
  ColumnMetadata,
  EntityMetadata,
  FindManyArgs,
  FindManyResult,
  FindOneArgs,
  KeyedChange,
  RepositoryAdapter,
  RowView,
  SortKey,
  WriteArgs,
  WrittenRow,
} from '@svc/core/spi';
import { isDatabaseSpelling } from '@svc/core/spi';

export interface MemoryAdapterOptions {
  /** Return the stored row from `insert` (as Postgres' RETURNING does); otherwise core re-reads it. @default false */
  readonly insertReturnsRow?: boolean;
}

const SESSION: AdapterSession = { adapterSession: true };

export class MemoryRepositoryAdapter implements RepositoryAdapter {
  /** The stored rows; tests may read and seed it directly. */
  rows: Row[] = [];
  /** Every findMany call, in order, so tests can see what core asked for. */
  readonly findManyCalls: FindManyArgs[] = [];
  private nextId = 1;

  constructor(
    readonly metadata: EntityMetadata,
    seed: readonly Row[] = [],
    private readonly options: MemoryAdapterOptions = {},
  ) {
    for (const row of seed) this.rows.push(this.withDefaults({ ...row }));
  }

  async transaction<T>(work: (session: AdapterSession) => Promise<T>): Promise<T> {
    const snapshot = this.rows.map((row) => ({ ...row }));
    const nextId = this.nextId;
    try {
      return await work(SESSION);
    } catch (error) {
      this.rows = snapshot;
      this.nextId = nextId;
      throw error;
    }
  }

  async findMany(args: FindManyArgs): Promise<FindManyResult> {
    this.findManyCalls.push(args);
    const matches = this.rows.filter(
      (row) => this.inView(row, args.view) && (!args.where || matches_(row, args.where)),
    );
    const sorted = [...matches].sort((a, b) => compareBy(a, b, args.sort));
    const offset = args.offset ?? 0;
    const page = sorted.slice(offset, args.limit === undefined ? undefined : offset + args.limit);
    const rows = page.map((row) => ({ ...row }));
    const exact = args.exactKeys
      ? rows.map((row) => Object.fromEntries(args.exactKeys!.map((key) => [key, spell(row[key])])))
      : undefined;
    return { rows, total: args.count ? matches.length : null, ...(exact ? { exact } : {}) };
  }

  async findOne(args: FindOneArgs): Promise<Row | null> {
    const row = this.rows.find(
      (candidate) =>
        hasKey(candidate, args.key) &&
        this.inView(candidate, args.view) &&
        (!args.where || matches_(candidate, args.where)),
    );
    return row ? { ...row } : null;
  }

  async insert(values: Row, _args: WriteArgs): Promise<{ key: EntityKey; row?: Row }> {
    const row = this.withDefaults({ ...values });
    this.rows.push(row);
    const key = Object.fromEntries(this.metadata.primaryKeys.map((field) => [field, row[field]]));
    return this.options.insertReturnsRow ? { key, row: { ...row } } : { key };
  }

  async update(key: EntityKey, values: Row, _args: WriteArgs): Promise<void> {
    Object.assign(this.require(key), values);
  }

  async insertMany(rows: readonly Row[], args: WriteArgs): Promise<WrittenRow[]> {
    const written: WrittenRow[] = [];
    for (const values of rows) written.push(await this.insert(values, args));
    return written;
  }

  async updateMany(keys: readonly EntityKey[], values: Row, args: WriteArgs): Promise<void> {
    for (const key of keys) await this.update(key, values, args);
  }

  async updateEach(changes: readonly KeyedChange[], args: WriteArgs): Promise<void> {
    for (const { key, values } of changes) await this.update(key, values, args);
  }

  async softDeleteMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void> {
    for (const key of keys) await this.softDelete(key, args);
  }

  async removeMany(keys: readonly EntityKey[], args: WriteArgs): Promise<void> {
    for (const key of keys) await this.remove(key, args);
  }

  async softDelete(key: EntityKey, _args: WriteArgs): Promise<void> {
    this.require(key)[this.marker()] = new Date();
  }

  async restore(key: EntityKey, _args: WriteArgs): Promise<void> {
    this.require(key)[this.marker()] = null;
  }

  async remove(key: EntityKey, _args: WriteArgs): Promise<void> {
    const row = this.require(key);
    this.rows = this.rows.filter((candidate) => candidate !== row);
  }

  /** Fills generated keys, literal defaults and nulls, as a database would. */
  private withDefaults(row: Row): Row {
    for (const column of this.metadata.columns) {
      if (row[column.property] !== undefined) continue;
      row[column.property] = defaultFor(column, () => this.nextId++);
    }
    for (const column of this.metadata.columns) {
      if (column.primary && column.generated && typeof row[column.property] === 'number') {
        this.nextId = Math.max(this.nextId, (row[column.property] as number) + 1);
      }
    }
    return row;
  }

  private inView(row: Row, view: RowView): boolean {
    const marker = this.metadata.deleteMarker;
    if (!marker || view === 'all') return true;
    const deleted = row[marker] !== null && row[marker] !== undefined;
    return view === 'deleted' ? deleted : !deleted;
  }

  private marker(): string {
    if (!this.metadata.deleteMarker) throw new Error(`${this.metadata.name} has no soft-delete marker`);
    return this.metadata.deleteMarker;
  }

  private require(key: EntityKey): Row {
    const row = this.rows.find((candidate) => hasKey(candidate, key));
    if (!row) throw new Error(`no ${this.metadata.name} row with key ${JSON.stringify(key)}`);
    return row;
  }
}

function defaultFor(column: ColumnMetadata, nextId: () => number): unknown {
  if (column.primary && column.generated && (column.kind === 'integer' || column.kind === 'bigint')) return nextId();
  if (column.defaultValue !== undefined) return column.defaultValue;
  if (column.generated && (column.kind === 'datetime' || column.kind === 'date'))
    return new Date('2024-01-01T00:00:00Z');
  return null;
}

function hasKey(row: Row, key: EntityKey): boolean {
  return Object.entries(key).every(([field, value]) => same(row[field], value));
}

/** Evaluates a filter node against one row. */
function matches_(row: Row, node: FilterNode): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matches_(row, child));
    case 'or':
      return node.children.some((child) => matches_(row, child));
    case 'not':
      return !matches_(row, node.child);
    case 'condition': {
      const actual = row[node.field];
      const value = node.value;
      const list = Array.isArray(value) ? value : [];
      switch (node.operator) {
        case 'eq':
          return same(actual, value);
        case 'ne':
          return actual !== null && actual !== undefined && !same(actual, value);
        case 'gt':
          return comparable(actual) && compare(actual, value) > 0;
        case 'gte':
          return comparable(actual) && compare(actual, value) >= 0;
        case 'lt':
          return comparable(actual) && compare(actual, value) < 0;
        case 'lte':
          return comparable(actual) && compare(actual, value) <= 0;
        case 'in':
          return list.some((item) => same(actual, item));
        case 'notIn':
          return actual !== null && actual !== undefined && !list.some((item) => same(actual, item));
        case 'between':
          return comparable(actual) && compare(actual, list[0]) >= 0 && compare(actual, list[1]) <= 0;
        case 'isNull':
          return actual === null || actual === undefined;
        case 'isNotNull':
          return actual !== null && actual !== undefined;
        default:
          throw new Error(`MemoryRepositoryAdapter does not implement '${node.operator}'`);
      }
    }
  }
}

function comparable(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** This adapter spells a date-time `YYYY-MM-DD HH:MM:SS.fff`, UTC, and reads that spelling back exactly. */
function spell(value: unknown): string | null {
  return value instanceof Date ? value.toISOString().replace('T', ' ').replace('Z', '') : null;
}

function plain(value: unknown): unknown {
  if (isDatabaseSpelling(value)) return new Date(`${value.databaseSpelling.replace(' ', 'T')}Z`).getTime();
  return value instanceof Date ? value.getTime() : value;
}

function same(a: unknown, b: unknown): boolean {
  return plain(a) === plain(b);
}

/** Orders values; a null is larger than any value, as the port requires. */
function compare(a: unknown, b: unknown): number {
  const x = plain(a);
  const y = plain(b);
  if (x === y) return 0;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  return (x as number | string) < (y as number | string) ? -1 : 1;
}

function compareBy(a: Row, b: Row, sort: readonly SortKey[]): number {
  for (const key of sort) {
    const order = compare(a[key.field], b[key.field]);
    if (order !== 0) return key.direction === 'asc' ? order : -order;
  }
  return 0;
}
