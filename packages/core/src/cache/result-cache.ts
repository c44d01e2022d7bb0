/**
 * The engine-level result cache for the reads (findOne, findMany, aggregate and count): keys partitioned by `cacheKey(context)`, invalidated by any
 * write to the entity or to an entity its reads can include, and never an error: a failing store reads as a miss.
 */
import type { SvcContext } from '../config/svc-context';
import type { CacheStore } from './cache-store';
import { canonicalJson } from './etag';

export type CacheKeyFunction = (context: SvcContext) => string | undefined;

export class ResultCache {
  /** Entity name → names of entities whose cached reads can embed it (directly or through others). */
  private readonly dependents = new Map<string, Set<string>>();
  /** Entities whose last invalidation failed: bypassed until their entries must have expired. */
  private readonly bypassUntil = new Map<string, number>();
  /** The longest ttl written so far: how long a failed invalidation keeps an entity bypassed. */
  private longestTtl = 0;
  private enabled = false;
  /** Bumped by every invalidation of an entity, so a read that raced a write does not store a stale result. */
  private readonly generations = new Map<string, number>();
  /** The scopes each entity's services have taken. */
  private readonly scopes = new Map<string, Set<string>>();

  constructor(
    private readonly store: CacheStore,
    private readonly cacheKey?: CacheKeyFunction,
  ) {}

  /** Some entity caches reads: from now on writes invalidate (a shared store may hold other instances' entries). */
  enable(): void {
    this.enabled = true;
  }

  /** Records that reads of `reader` may embed rows of `embedded`. */
  addDependency(reader: string, embedded: string): void {
    const set = this.dependents.get(embedded) ?? new Set();
    set.add(reader);
    this.dependents.set(embedded, set);
  }

  /**
   * The key scope of one more service of `entity`. A named service's is `@<name>:` (`@<name>#2:` ... should another
   * service of the entity take the same name), the same in every release that keeps the name. An unnamed one takes
   * '' for the entity's first, `#2:`, `#3:`, ... for the next, in the order services are made (the same on every
   * instance of one app). Two controllers of one entity serve different fields, scopes and lookups, so one must never
   * answer from the other's entries; a write to the entity still drops all of them, by the `<entity>|` prefix.
   */
  scopeOf(entity: string, name?: string): string {
    const taken = this.scopes.get(entity) ?? new Set<string>();
    this.scopes.set(entity, taken);
    const base = name === undefined ? '' : `@${encodeURIComponent(name)}`;
    let scope = name === undefined ? '' : `${base}:`;
    for (let n = 2; taken.has(scope); n++) scope = `${base}#${n}:`;
    taken.add(scope);
    return scope;
  }

  /** A `cacheKey(context)` partitions entries per caller. */
  get partitioned(): boolean {
    return this.cacheKey !== undefined;
  }

  key(
    entity: string,
    parts: { scope?: string; operation: string; id?: unknown; query?: unknown; context: SvcContext },
  ): string {
    const partition = this.cacheKey?.(parts.context) ?? '';
    // Wire pairs sorted by name (stably, so repeated `[]` values keep their order): the same query, the same key.
    const query = Array.isArray(parts.query)
      ? [...parts.query].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      : parts.query;
    const operation = `${parts.scope ?? ''}${parts.operation}`;
    return `${entity}|${operation}|${canonicalJson(parts.id ?? null)}|${canonicalJson(query ?? null)}|${partition}`;
  }

  async get(entity: string, key: string): Promise<unknown> {
    if ((this.bypassUntil.get(entity) ?? 0) > Date.now()) return undefined;
    try {
      return await this.store.get(key);
    } catch {
      return undefined;
    }
  }

  /** The entity's invalidation count; pass it back to `set` to skip storing a read that a write overtook. */
  generationOf(entity: string): number {
    return this.generations.get(entity) ?? 0;
  }

  async set(
    key: string,
    value: unknown,
    ttlSeconds: number,
    race?: { entity: string; generation: number },
  ): Promise<void> {
    if (race && this.generationOf(race.entity) !== race.generation) return;
    this.longestTtl = Math.max(this.longestTtl, ttlSeconds);
    try {
      await this.store.set(key, value, ttlSeconds);
    } catch {
      // A store that fails degrades to uncached.
    }
  }

  /** Drops the entries of `entity` and of every entity whose reads can embed it. */
  async invalidate(entity: string): Promise<void> {
    if (!this.enabled) return;
    for (const name of this.affected(entity)) {
      this.generations.set(name, this.generationOf(name) + 1);
      try {
        await this.store.invalidate(name);
      } catch {
        this.bypassUntil.set(name, Date.now() + this.longestTtl * 1000);
      }
    }
  }

  private affected(entity: string): Set<string> {
    const out = new Set([entity]);
    const queue = [entity];
    while (queue.length > 0) {
      for (const reader of this.dependents.get(queue.pop()!) ?? []) {
        if (!out.has(reader)) {
          out.add(reader);
          queue.push(reader);
        }
      }
    }
    return out;
  }
}
