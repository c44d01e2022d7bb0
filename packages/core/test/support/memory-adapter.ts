/** An in-memory RepositoryAdapter over an array of rows, for core's unit tests; metadata is given by hand. */
import type { EntityKey, FilterNode, Row } from '@svc/core';
import type {
  AdapterSession,
  AggregateArgs,
  AggregateGroup,
  AggregateMeasure,
  AggregateOrderTerm,
  AggregateResult,
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

  /**
   * Groups in memory with the port's semantics: a relation path reads a nested object (`row.author.country`) when the
   * row holds one, and null otherwise or outside the key's scope; nulls sort as larger than any value.
   */
  async aggregate(args: AggregateArgs): Promise<AggregateResult> {
    const matches = this.rows.filter(
      (row) => this.inView(row, args.view) && (!args.where || matches_(row, args.where)),
    );
    const byKey = new Map<string, { key: Record<string, unknown>; rows: Row[] }>();
    for (const row of matches) {
      const key = Object.fromEntries(args.groupBy.map((group) => [group.field, keyValue(row, group)]));
      const identity = JSON.stringify(args.groupBy.map((group) => plain(key[group.field]) ?? null));
      const group = byKey.get(identity) ?? { key, rows: [] };
      group.rows.push(row);
      byKey.set(identity, group);
    }
    if (args.groupBy.length === 0 && byKey.size === 0) byKey.set('[]', { key: {}, rows: [] });
    const groups: AggregateGroup[] = [...byKey.values()].map(({ key, rows }) => ({
      key,
      count: rows.length,
      values: Object.fromEntries(
        args.measures.map((measure) => [`${measure.fn}.${measure.field}`, this.measure(measure, rows)]),
      ),
    }));
    const order = [
      ...args.sort,
      ...args.groupBy.map((group) => ({
        by: { kind: 'group', field: group.field } as const,
        direction: 'asc' as const,
      })),
    ];
    groups.sort((a, b) => {
      for (const { by, direction } of order) {
        const compared = compare(this.orderValue(a, by), this.orderValue(b, by));
        if (compared !== 0) return direction === 'asc' ? compared : -compared;
      }
      return 0;
    });
    const offset = args.offset ?? 0;
    return {
      groups: groups.slice(offset, args.limit === undefined ? undefined : offset + args.limit),
      total: args.count ? groups.length : null,
    };
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

  /** One measure over a group's rows, valued as the port describes (sums of exact kinds as text). */
  private measure(measure: AggregateMeasure, rows: readonly Row[]): unknown {
    const values = rows.map((row) => row[measure.field]).filter((value) => value !== null && value !== undefined);
    switch (measure.fn) {
      case 'countDistinct':
        return new Set(values.map(plain)).size;
      case 'min':
      case 'max': {
        if (values.length === 0) return null;
        const sign = measure.fn === 'min' ? 1 : -1;
        return values.reduce((best, value) => (sign * compare(value, best) < 0 ? value : best));
      }
      case 'avg':
        return values.length === 0
          ? null
          : values.reduce<number>((sum, value) => sum + Number(value), 0) / values.length;
      case 'sum': {
        if (values.length === 0) return null;
        const kind = this.metadata.columns.find((column) => column.property === measure.field)?.kind;
        if (kind === 'decimal') return decimalSum(values.map(String));
        if (kind === 'bigint') return values.reduce<bigint>((sum, value) => sum + BigInt(String(value)), 0n).toString();
        if (kind === 'integer') {
          const sum = values.reduce<bigint>((total, value) => total + BigInt(String(value)), 0n);
          return sum >= BigInt(Number.MIN_SAFE_INTEGER) && sum <= BigInt(Number.MAX_SAFE_INTEGER)
            ? Number(sum)
            : sum.toString();
        }
        return values.reduce<number>((sum, value) => sum + Number(value), 0);
      }
    }
  }

  /** What a group sorts by for one order term. */
  private orderValue(group: AggregateGroup, by: AggregateOrderTerm): unknown {
    if (by.kind === 'count') return group.count;
    if (by.kind === 'group') return group.key[by.field];
    const value = group.values[`${by.fn}.${by.field}`];
    // Sums of exact kinds are text: they sort by their number.
    return by.fn === 'sum' && typeof value === 'string' ? Number(value) : value;
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

/** A group key's value of one row: an own field, or a nested related object's field when it meets the scope. */
function keyValue(row: Row, group: AggregateArgs['groupBy'][number]): unknown {
  const dot = group.field.indexOf('.');
  if (dot < 0) return row[group.field] ?? null;
  const related = row[group.field.slice(0, dot)];
  if (typeof related !== 'object' || related === null) return null;
  const target = related as Row;
  if (group.scope && !matches_(target, group.scope)) return null;
  return target[group.field.slice(dot + 1)] ?? null;
}

/** The exact sum of decimal texts, with as many fraction digits as the longest of them (`0.10 + 0.2` → `0.30`). */
function decimalSum(texts: readonly string[]): string {
  const scale = Math.max(...texts.map((text) => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0)));
  const units = texts.reduce((sum, text) => {
    const [whole = '0', fraction = ''] = text.split('.');
    const negative = whole.startsWith('-');
    const magnitude = BigInt(`${negative ? whole.slice(1) : whole}${fraction.padEnd(scale, '0')}` || '0');
    return sum + (negative ? -magnitude : magnitude);
  }, 0n);
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
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
