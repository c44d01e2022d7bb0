/**
 * What the result cache stores for a read, as plain JSON: a store that serializes (Redis, say) hands back an entry equal
 * to the one it was given, so a hit serves the miss's response and runs the policy on the miss's row.
 */
import type { Row } from '../persistence/repository-adapter';
/** The part of the engine's response a cache entry keeps (the engine's `ExecuteResponse`, structurally). */
interface CachedResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly etag?: string;
  readonly headers: Readonly<Record<string, string>>;
}
import { decodeCachedRow, encodeCachedRow, type CachedRow } from './cached-row';
import { toPlainJson } from './plain-json';

export interface ResultCacheEntry {
  /** The 200 response as JSON carries it: status, ETag, headers and body, with no undefined members. */
  readonly response: CachedResponse;
  /** findOne: the row the policy runs on again at every hit. */
  readonly row?: CachedRow;
}

/**
 * The entry for a fresh read, or undefined when the read cannot be held as JSON (a bigint in the body, say): such a read
 * is served uncached. The miss serves `entry.response`, so the first read and every hit answer alike.
 */
export function toResultCacheEntry(fresh: { response: CachedResponse; row?: Row }): ResultCacheEntry | undefined {
  try {
    const response = toPlainJson(fresh.response) as CachedResponse;
    return fresh.row === undefined ? { response } : { response, row: encodeCachedRow(fresh.row) };
  } catch {
    return undefined;
  }
}

/** What a store handed back, when it has the shape of an entry; anything else reads as a miss. */
export function readResultCacheEntry(value: unknown): ResultCacheEntry | undefined {
  if (!isRecord(value) || !isRecord(value['response'])) return undefined;
  const { status, headers } = value['response'];
  if (typeof status !== 'number' || !isRecord(headers)) return undefined;
  const row = value['row'];
  if (row !== undefined && !(isRecord(row) && isRecord(row['values']))) return undefined;
  return value as unknown as ResultCacheEntry;
}

/** The entry's row with its Dates (and other tagged values) revived, or undefined when it has none or it is damaged. */
export function policyRowOf(entry: ResultCacheEntry): Row | undefined {
  if (entry.row === undefined) return undefined;
  try {
    return decodeCachedRow(entry.row);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
