/** What every batch write shares: its bounds, how a refusal names its item, and reading its rows by key in scope. */
import type { ResolvedBatch } from '../config/batch-config';
import { SvcException, ValidationFailedException, type SvcErrorItem } from '../errors/svc-exception';
import type { ColumnKind, EntityKey } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import { scopeFilter } from '../pipeline/load-row';
import { outsideScope } from '../pipeline/stages/reread-stage';

/** The entity's resolved `batch` block; a batch operation is on only where it exists. */
export function batchOf(call: OperationCall): ResolvedBatch {
  const batch = call.entity.batch;
  if (!batch) throw new Error(`${call.entity.name}.${call.operation.id} runs without a batch config.`);
  return batch;
}

/** `[3].title`, or `[3]` for a problem of the whole item. */
function atIndex(index: number, field: string | undefined): string {
  return field ? `[${index}].${field}` : `[${index}]`;
}

/**
 * The body problems of many items, reported together: each check runs, an item's validation problems are kept with
 * their fields prefixed by its index (`[3].title`), and one 400 names them all. Any other failure ends the batch.
 */
export class ItemProblems {
  private readonly problems: SvcErrorItem[] = [];

  /** Runs `check` for item `index`, keeping its validation problems; undefined when it had any. */
  async check<T>(index: number, check: () => Promise<T>): Promise<T | undefined> {
    try {
      return await check();
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      for (const problem of error.errors ?? [{ code: 'invalid', detail: error.detail }]) {
        this.problems.push({ ...problem, field: atIndex(index, problem.field) });
      }
      return undefined;
    }
  }

  add(index: number, field: string | undefined, code: string, detail: string): void {
    this.problems.push({ field: atIndex(index, field), code, detail });
  }

  throwIfAny(): void {
    if (this.problems.length === 0) return;
    const first = this.problems[0]!;
    const more = this.problems.length > 1 ? ` (and ${this.problems.length - 1} more)` : '';
    throw new ValidationFailedException(
      this.problems,
      `Item ${first.field}: ${first.detail}${more} Nothing was written.`,
    );
  }
}

/** A client error of item `index`, naming the item (`[3]`) and saying nothing was written; others stay as they are. */
export function atItem(index: number, error: unknown): unknown {
  if (!(error instanceof SvcException) || error.status >= 500) return error;
  return new SvcException(error.code, {
    detail: `Item [${index}]: ${error.detail} Nothing was written.`,
    errors: [{ field: `[${index}]`, code: error.code, detail: error.detail }],
    params: { ...error.params, index },
    ...(error.headers ? { headers: error.headers } : {}),
  });
}

/** Runs a per-item check; a refusal names the item (`[3]`) and says nothing was written. */
export async function refusedAt(index: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    throw atItem(index, error);
  }
}

/**
 * The written rows as the database now holds them, inside the caller's scope, in key order; a row the write moved
 * out of the scope refuses the batch (403) and rolls it back. When the write returned every row (by the index of its
 * key; none was changed after it) and no scope needs checking, those rows stand.
 */
export async function rereadAll(
  call: OperationCall,
  keys: readonly EntityKey[],
  session: AdapterSession,
  returned: ReadonlyMap<number, Row> = new Map(),
): Promise<Row[]> {
  const scope = await scopeFilter(call);
  if (!scope && returned.size === keys.length) return keys.map((_key, index) => returned.get(index)!);
  const rows: Row[] = [];
  for (const chunk of chunked(keys, READ_CHUNK)) {
    const where = andFilters(scope, keysFilter(call, chunk));
    const read = await call.entity.adapter.findMany({
      where,
      sort: keyOrder(call),
      count: false,
      view: 'all',
      session,
    });
    rows.push(...read.rows);
  }
  const found = byKeyIndex(call, keys, rows);
  return keys.map((_key, index) => {
    const row = found.get(index);
    if (row) return row;
    throw outsideScope(call);
  });
}

/** The rows of `keys` among `rows` (in any order), by the index of their key; a key no row has is left out. */
export function byKeyIndex(call: OperationCall, keys: readonly EntityKey[], rows: readonly Row[]): Map<number, Row> {
  const byKey = new Map(rows.map((row) => [keyString(call, row), row]));
  const found = new Map<number, Row>();
  keys.forEach((key, index) => {
    const row = byKey.get(keyString(call, key));
    if (row) found.set(index, row);
  });
  return found;
}

/** Rows one read of a batch names: an `IN` list or an OR of composite keys stays within every database's limits. */
export const READ_CHUNK = 500;

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The primary key's columns ascending: rows are read and locked in one order, so concurrent batches queue. */
export function keyOrder(call: OperationCall) {
  return call.entity.metadata.primaryKeys.map((field) => ({ field, direction: 'asc' as const }));
}

/** `key IN (...)` (or an OR of composite keys) for the rows of `keys`. */
export function keysFilter(call: OperationCall, keys: readonly EntityKey[]): FilterNode {
  const fields = call.entity.metadata.primaryKeys;
  if (fields.length === 1) {
    const [field] = fields as [string];
    return { kind: 'condition', field, operator: 'in', value: keys.map((key) => key[field]) };
  }
  return anyOf(keys.map((key) => allOf(fields.map((field) => [field, key[field]]))));
}

export function allOf(pairs: readonly (readonly [string, unknown])[]): FilterNode {
  const children: FilterNode[] = pairs.map(([field, value]) => ({ kind: 'condition', field, operator: 'eq', value }));
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

export function anyOf(children: readonly FilterNode[]): FilterNode {
  return children.length === 1 ? children[0]! : { kind: 'or', children };
}

export function keyString(call: OperationCall, row: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(call.entity.metadata.primaryKeys.map((field) => String(row[field])));
}

/** A column's value as it compares, by the column's kind (the text of the value, whatever the driver hands back). */
export function comparable(kind: ColumnKind | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (kind === 'uuid') return String(value).toLowerCase();
  if (kind === 'integer' || kind === 'number' || kind === 'decimal') {
    const number = Number(value);
    return Number.isFinite(number) ? String(number) : String(value);
  }
  if (kind === 'bigint') {
    try {
      return BigInt(String(value)).toString();
    } catch {
      return String(value);
    }
  }
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The rows whose `target` columns equal one of the items': `IN` for one column, an OR of ANDs for several. */
export function matchingTarget(target: readonly string[], items: readonly Row[]): FilterNode {
  if (target.length === 1) {
    const [field] = target as [string];
    return { kind: 'condition', field, operator: 'in', value: items.map((values) => values[field]) };
  }
  return anyOf(items.map((values) => allOf(target.map((field) => [field, values[field]]))));
}
