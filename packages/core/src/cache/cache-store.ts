/** The result-cache store contract (`SvcOptions.cacheStore`): sync or async, shared or local. */

export interface CacheStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): unknown | Promise<unknown>;
  /**
   * Keeps `value` for `ttlSeconds`. Values are plain JSON (`JSON.parse(JSON.stringify(value))` equals `value`), so a
   * store may keep them as text; one that keeps objects should copy them, so callers cannot change what others read.
   */
  set(key: string, value: unknown, ttlSeconds: number): void | Promise<void>;
  /** Drops every entry of `entity` (keys start with `<entity>|`). */
  invalidate(entity: string): void | Promise<void>;
  /**
   * A store that connects somewhere resolves once it can serve (or gives up waiting, bounded by itself): the module
   * awaits it before the app serves, so the first reads are already cached and shared.
   */
  ready?(): Promise<unknown>;
}
