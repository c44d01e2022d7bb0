/** The result-cache store contract (`SvcOptions.cacheStore`): sync or async, shared or local. */

export interface CacheStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): unknown | Promise<unknown>;
  set(key: string, value: unknown, ttlSeconds: number): void | Promise<void>;
  /** Drops every entry of `entity` (keys start with `<entity>|`). */
  invalidate(entity: string): void | Promise<void>;
}
