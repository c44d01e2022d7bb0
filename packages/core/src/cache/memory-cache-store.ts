/** The built-in CacheStore: an in-process LRU with a size bound and per-entry expiry. */
import type { CacheStore } from './cache-store';

export interface MemoryCacheStoreOptions {
  /** Entries kept at most; the least recently used go first. @default 1000 */
  readonly maxEntries?: number;
}

export class MemoryCacheStore implements CacheStore {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private readonly maxEntries: number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
  }

  get(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert so Map order stays least-recently-used first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    // A copy, so a caller that changes what it got cannot change what later readers get.
    return structuredClone(entry.value);
  }

  set(key: string, value: unknown, ttlSeconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value: structuredClone(value), expires: Date.now() + ttlSeconds * 1000 });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  invalidate(entity: string): void {
    const prefix = `${entity}|`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Entries held now (expired ones included until read). */
  get size(): number {
    return this.entries.size;
  }
}
