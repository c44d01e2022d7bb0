/**
 * A result-cache store in Redis, shared by every app instance. Invalidation is one INCR: each entity has a generation
 * counter, and an entry's key includes the generation it was read under, so bumping the counter orphans every entry of
 * the entity at once (they expire by their TTL). A read stores its result only under the generation it saw before it
 * read the database, and only while that is still the current one, so a read on any instance that a write on any
 * other overtook never stores a stale entry. Redis failing degrades reads to uncached: never an error, never a wait
 * longer than one command timeout.
 */
import type { CacheStore } from '@svc/core';
import type Redis from 'ioredis';
import {
  answersPing,
  bounded,
  isReady,
  keyPrefixOf,
  openRedis,
  whenReady,
  positiveInteger,
  type RedisConnection,
  type RedisPartOptions,
} from './redis-connection';
import { OutageReporter } from './outage-reporter';

export type RedisCacheStoreOptions = RedisPartOptions;

/** Reads a generation and the entry under it in one round trip: `[generation, entry or null]`. */
const GET_SCRIPT = `
local generation = redis.call('GET', KEYS[1]) or '0'
return { generation, redis.call('GET', ARGV[1] .. generation .. '|' .. ARGV[2]) }
`;

/** Stores an entry only while its generation is still the current one: 1 stored, 0 overtaken by a write. */
const SET_SCRIPT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('SET', ARGV[2], ARGV[3], 'PX', ARGV[4])
return 1
`;

/**
 * The reads of one key that missed and have not stored yet: the generation they saw (null once two of them saw
 * different ones: a write came between them, and which store belongs to which read is unknown, so none stores), and
 * when each began, so a read that never stores (a 404) is forgotten in time.
 */
interface PendingReads {
  generation: string | null;
  readonly began: number[];
}

/** A read may take this long between its miss and its store; a store after that is skipped. */
const READ_WINDOW_MS = 10_000;

interface CacheCommands {
  svcCacheGet(generationKey: string, entryPrefix: string, key: string): Promise<[string, string | null]>;
  svcCacheSet(
    generationKey: string,
    generation: string,
    entryKey: string,
    value: string,
    ttlMs: number,
  ): Promise<number>;
}

export class RedisCacheStore implements CacheStore {
  private readonly client: Redis & CacheCommands;
  private readonly owned: boolean;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly reporter: OutageReporter;
  /** Per key, the reads that missed and have not stored yet. */
  private readonly pending = new Map<string, PendingReads>();
  /** Entities whose invalidation failed while Redis was down: bumped first when it is back. */
  private readonly unsent = new Set<string>();
  private recovering = false;

  constructor(connection: RedisConnection, options: RedisCacheStoreOptions = {}) {
    this.timeoutMs = positiveInteger(options.commandTimeoutMs, 250, 'commandTimeoutMs');
    this.prefix = keyPrefixOf(options.keyPrefix);
    const { client, owned } = openRedis(connection, this.timeoutMs);
    this.owned = owned;
    client.defineCommand('svcCacheGet', { numberOfKeys: 1, lua: GET_SCRIPT });
    client.defineCommand('svcCacheSet', { numberOfKeys: 1, lua: SET_SCRIPT });
    this.client = client as Redis & CacheCommands;
    this.reporter = new OutageReporter(
      'the result cache',
      'reads are served uncached',
      options.onError,
      options.onRecover,
    );
    client.on('error', (error: unknown) => this.reporter.failed(error));
    client.on('ready', () => void this.recover());
  }

  async get(key: string): Promise<unknown> {
    const entity = entityOf(key);
    if (!this.usable(entity)) return undefined;
    let reply: [string, string | null];
    const sent = this.reporter.mark();
    try {
      reply = await bounded(
        this.client.svcCacheGet(this.generationKey(entity), this.entryPrefix(entity), key),
        this.timeoutMs,
      );
    } catch (error) {
      this.reporter.failed(error, 'commands', sent);
      return undefined;
    }
    this.succeeded(sent);
    const [generation, text] = reply;
    if (text !== null) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    }
    this.remember(key, String(generation));
    return undefined;
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    // A store with no miss before it cannot tell which generation its value belongs to: it is skipped.
    const generation = this.take(key);
    if (generation === undefined) return;
    const entity = entityOf(key);
    if (!this.usable(entity)) return;
    const ttlMs = Math.max(1, Math.round(ttlSeconds * 1000));
    const sent = this.reporter.mark();
    try {
      await bounded(
        this.client.svcCacheSet(
          this.generationKey(entity),
          generation,
          `${this.entryPrefix(entity)}${generation}|${key}`,
          JSON.stringify(value),
          ttlMs,
        ),
        this.timeoutMs,
      );
      this.succeeded(sent);
    } catch (error) {
      this.reporter.failed(error, 'commands', sent);
    }
  }

  /** One INCR: every entry of the entity, on every instance, is orphaned. Throws when Redis cannot take it. */
  async invalidate(entity: string): Promise<void> {
    const sent = this.reporter.mark();
    try {
      if (!isReady(this.client)) throw new Error(`the connection is ${this.client.status}`);
      await bounded(this.client.incr(this.generationKey(entity)), this.timeoutMs);
      this.succeeded(sent);
    } catch (error) {
      // Remembered, and bumped as soon as Redis is back; meanwhile this instance serves the entity uncached, and the
      // result cache reads it uncached for as long as an entry can live.
      this.unsent.add(entity);
      this.reporter.failed(error, 'commands', sent);
      throw error;
    }
  }

  /**
   * Waits, at most `timeoutMs`, for the connection to take commands: Svc calls it before the app serves, so the first
   * reads are cached and shared. False when Redis did not answer in time; reads then go uncached until it does.
   */
  ready(timeoutMs = 2000): Promise<boolean> {
    return whenReady(this.client, timeoutMs);
  }

  /**
   * Whether the cache is shared right now: Redis answers a PING within the command timeout. False at once while the
   * connection is down, and false when Redis is too slow; reads are then served uncached. For a health check, which
   * must report an outage, not wait on it (`ready` waits for the connection instead).
   */
  ping(): Promise<boolean> {
    return answersPing(this.client, this.timeoutMs);
  }

  /** Closes the connection when this store opened it. */
  async close(): Promise<void> {
    if (!this.owned) return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** Redis can take a command, and the entity has no invalidation still to send (until then it is uncached here). */
  private usable(entity: string): boolean {
    if (!isReady(this.client)) return false;
    if (!this.unsent.has(entity)) return true;
    void this.recover();
    return false;
  }

  /** A command sent at `sent` went through: an outage (a dropped connection, or only slow commands) is over. */
  private succeeded(sent: number): void {
    if (this.unsent.size > 0) void this.recover();
    else this.reporter.succeeded(sent);
  }

  /** Redis is back: the invalidations it missed go first. */
  private async recover(): Promise<void> {
    if (this.recovering) return;
    this.recovering = true;
    try {
      await this.sendUnsent();
    } finally {
      this.recovering = false;
    }
  }

  private async sendUnsent(): Promise<void> {
    const sent = this.reporter.mark();
    for (const entity of [...this.unsent]) {
      try {
        await bounded(this.client.incr(this.generationKey(entity)), this.timeoutMs);
        this.unsent.delete(entity);
      } catch (error) {
        this.reporter.failed(error, 'commands', sent);
        return;
      }
    }
    this.reporter.succeeded(sent);
  }

  private remember(key: string, generation: string): void {
    const now = Date.now();
    const reads = this.current(key, now);
    if (!reads) this.pending.set(key, { generation, began: [now] });
    else {
      if (reads.generation !== generation) reads.generation = null;
      reads.began.push(now);
    }
    if (this.pending.size > 10_000) for (const other of [...this.pending.keys()]) this.current(other, now);
  }

  /** The generation a read of `key` stores under, or undefined when it must not store. */
  private take(key: string): string | undefined {
    const reads = this.current(key, Date.now());
    if (!reads) return undefined;
    reads.began.shift();
    if (reads.began.length === 0) this.pending.delete(key);
    return reads.generation ?? undefined;
  }

  /** The pending reads of `key` still in their window, forgetting the rest. */
  private current(key: string, now: number): PendingReads | undefined {
    const reads = this.pending.get(key);
    if (!reads) return undefined;
    while (reads.began.length > 0 && now - reads.began[0]! >= READ_WINDOW_MS) reads.began.shift();
    if (reads.began.length > 0) return reads;
    this.pending.delete(key);
    return undefined;
  }

  /** `{entity}` is a hash tag: an entity's counter and entries live in one slot of a cluster. */
  private generationKey(entity: string): string {
    return `${this.prefix}cache:{${entity}}:generation`;
  }

  private entryPrefix(entity: string): string {
    return `${this.prefix}cache:{${entity}}:`;
  }
}

/**
 * `redisCacheStore({ url } | { client }, options?)`: the result cache in Redis, shared by every app instance, for
 * `SvcModule.forRoot({ cacheStore })`.
 */
export function redisCacheStore(connection: RedisConnection, options?: RedisCacheStoreOptions): RedisCacheStore {
  return new RedisCacheStore(connection, options);
}

/** Result-cache keys start with `<entity>|`. */
function entityOf(key: string): string {
  const bar = key.indexOf('|');
  return bar === -1 ? key : key.slice(0, bar);
}
