/** A CacheStore that keeps every value as JSON text, as a Redis store would: what it hands back is what JSON carried. */
import type { CacheStore } from '@svc/core';

export class JsonRoundTripCacheStore implements CacheStore {
  private readonly entries = new Map<string, { text: string; expires: number }>();

  get(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return JSON.parse(entry.text);
  }

  set(key: string, value: unknown, ttlSeconds: number): void {
    this.entries.set(key, { text: JSON.stringify(value), expires: Date.now() + ttlSeconds * 1000 });
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
