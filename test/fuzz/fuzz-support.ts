/** Helpers of the fuzz suite: table checksums, prototype snapshots and the per-response invariants. */
import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import type { DataSource } from 'typeorm';

/** Row count and a hash of every row, per table (junction tables included), read with plain SQL. */
export type TableChecksums = Record<string, { readonly rows: number; readonly hash: string }>;

export async function tableChecksums(dataSource: DataSource): Promise<TableChecksums> {
  const driver = dataSource.driver;
  const sums: TableChecksums = {};
  const metadatas = [...dataSource.entityMetadatas].sort((a, b) => a.tableName.localeCompare(b.tableName));
  for (const metadata of metadatas) {
    const table = metadata.tablePath
      .split('.')
      .map((part) => driver.escape(part))
      .join('.');
    const order = metadata.primaryColumns.map((column) => driver.escape(column.databaseName)).join(', ');
    const rows = (await dataSource.query(`SELECT * FROM ${table} ORDER BY ${order}`)) as Record<string, unknown>[];
    const text = JSON.stringify(rows, (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
        : value,
    );
    sums[metadata.tableName] = { rows: rows.length, hash: createHash('sha256').update(text).digest('hex') };
  }
  return sums;
}

/** What the prototypes of plain objects and arrays carry: any new key after the run is pollution. */
export function prototypeSnapshot(): string[] {
  return [
    ...Object.getOwnPropertyNames(Object.prototype).map((name) => `Object.${name}`),
    ...Object.getOwnPropertyNames(Array.prototype).map((name) => `Array.${name}`),
    ...Object.getOwnPropertyNames(Function.prototype).map((name) => `Function.${name}`),
  ].sort();
}

/**
 * Why a response breaks the rules of a list read, or undefined when it keeps them: never a 5xx; a 4xx is an
 * `application/problem+json` body with an `SVC_*` code, its status, a title and a detail; a 200 is a list envelope
 * whose page size fits `limit`, `offset` and `total`, with no row twice.
 */
export function contractViolation(res: Response, options: { keyset?: boolean } = {}): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  const body = bodyOf(res);
  if (res.status >= 500) return `status ${res.status}`;
  if (res.status >= 400) {
    if (!type.startsWith('application/problem+json')) return `content-type '${type}' on a ${res.status}`;
    if (!isRecord(body)) return 'a problem body that is not an object';
    if (typeof body['code'] !== 'string' || !body['code'].startsWith('SVC_')) return 'problem code not SVC_*';
    if (body['status'] !== res.status) return `problem status ${String(body['status'])} != ${res.status}`;
    if (typeof body['title'] !== 'string' || body['title'] === '') return 'problem without a title';
    if (typeof body['detail'] !== 'string' || body['detail'] === '') return 'problem without a detail';
    return undefined;
  }
  if (res.status !== 200) return `unexpected status ${res.status}`;
  if (!type.startsWith('application/json')) return `content-type '${type}' on a 200`;
  if (!isRecord(body)) return 'a list body that is not an object';
  const { items, limit, offset, total } = body;
  if (!Array.isArray(items)) return 'items is not an array';
  if (typeof limit !== 'number' || typeof offset !== 'number') return 'limit or offset is not a number';
  if (typeof total !== 'number') return 'total is not a number';
  if (limit < 0 || limit > 100) return `limit ${limit} outside 0..100`;
  // A keyset page holds at most `limit` rows after its boundary; an offset page is exactly determined.
  if (options.keyset ? items.length > limit : items.length !== Math.max(0, Math.min(limit, total - offset))) {
    return `${items.length} items for limit ${limit}, offset ${offset}, total ${total}`;
  }
  const ids = items.map((item: unknown) => (isRecord(item) ? item['id'] : undefined));
  if (ids.every((id) => id !== undefined) && new Set(ids).size !== ids.length) return 'the same row twice in a page';
  return undefined;
}

export function bodyOf(res: Response): unknown {
  const parsed: unknown = res.body;
  if (isRecord(parsed) && Object.keys(parsed).length > 0) return parsed;
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    return res.text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `200: 7208, 400: 12792`. */
export function formatCounts(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
}

/** Runs `task` over `items` with at most `concurrency` in flight. */
export async function runPool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
