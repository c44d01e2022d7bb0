/** Typed helpers of the e2e suites: problem-details assertions, list envelopes and row counts. */
import type { Response } from 'supertest';
import type { DataSource } from 'typeorm';

export interface ProblemItem {
  readonly param?: string;
  readonly field?: string;
  readonly code: string;
  readonly detail: string;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly code: string;
  readonly entity?: string;
  readonly errors?: readonly ProblemItem[];
  readonly requestId?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly internals?: unknown;
}

export type Item = Record<string, unknown>;

export interface ListEnvelope<T = Item> {
  readonly items: T[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
}

/** Asserts an RFC 9457 problem response with this status and code, and returns its body. */
export function expectProblem(res: Response, status: number, code: string): Problem {
  if (res.status !== status || (res.body as Problem | undefined)?.code !== code) {
    throw new Error(`Expected ${status} ${code}, got ${res.status}: ${JSON.stringify(res.body)}`);
  }
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.body as Problem;
  expect(body).toMatchObject({
    status,
    code,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
  });
  return body;
}

/** The names (param or field) the problem's errors[] entries point at, sorted. */
export function namedIn(problem: Problem): string[] {
  return (problem.errors ?? []).map((entry) => entry.param ?? entry.field ?? '').sort();
}

/** Asserts a 200 list envelope with exactly the four keys, and returns it. */
export function expectList<T = Item>(res: Response): ListEnvelope<T> {
  if (res.status !== 200) throw new Error(`Expected a 200 list, got ${res.status}: ${JSON.stringify(res.body)}`);
  const body = res.body as ListEnvelope<T>;
  expect(Object.keys(body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
  expect(Array.isArray(body.items)).toBe(true);
  return body;
}

/** Asserts a 2xx item response (status given) and returns its body. */
export function expectItem(res: Response, status = 200): Item {
  if (res.status !== status) throw new Error(`Expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Item;
}

/** Rows in a table, soft-deleted ones included. */
export async function countRows(dataSource: DataSource, entity: Function): Promise<number> {
  return dataSource.getRepository(entity).count({ withDeleted: true });
}

/** The field of each item, in order. */
export function pluck<T = unknown>(items: readonly Item[], field: string): T[] {
  return items.map((item) => item[field] as T);
}
