/**
 * The SSE transport's event log on a Redis Stream, shared by every app instance: `append` is an XADD of the event and
 * its subject (the stream capped near `bufferSize`); one blocking XREAD loop per instance hands every entry, from any
 * instance, to the local transport, whose own subscriptions admit it per subscriber; the stream ids are the SSE ids,
 * so a subscriber resumes (XRANGE) on any instance. When Redis is unreachable or slow, events stay on the instance
 * that published them, under local ids, and the outage is reported once; the loop picks up again when Redis is back,
 * and the instance then appends a gap entry naming the entities whose events it kept: the other instances tell those
 * entities' subscribers to read the current state again, and a resume from before the gap is a reset.
 */
import { randomBytes } from 'node:crypto';
import type { RealtimeEvent } from '@svc/core';
import Redis from 'ioredis';
import { decodeEvent, encodeEvent } from './envelope-codec';
import { OutageReporter } from './outage-reporter';
import {
  answersPing,
  bounded,
  isReady,
  keyPrefixOf,
  openRedis,
  positiveInteger,
  safeRedisOptions,
  type RedisConnection,
  type RedisPartOptions,
} from './redis-connection';

export interface RedisRealtimeOptions extends RedisPartOptions {
  /** The stream's name. @default `<keyPrefix>events` */
  readonly stream?: string;
  /** Events kept for resume (the stream is trimmed near this length). @default 1000 */
  readonly bufferSize?: number;
  /** How long one XREAD waits for new entries before it asks again. @default 5000 */
  readonly blockMs?: number;
}

/** An event with its SSE id: what `@svc/sse`'s event log delivers (`LoggedEvent`). */
export interface RedisLoggedEvent {
  readonly id: string;
  readonly event: RealtimeEvent;
}

/** Events of these entities that another instance could not share: `@svc/sse`'s `LoggedGap`. */
export interface RedisLoggedGap {
  readonly id: string;
  readonly entities: readonly string[];
}

/** A gap entry's `g` field: the entities, and the instance that kept their events (which needs no notice). */
interface GapEntry {
  readonly entities: string[];
  readonly origin: string;
}

/** Stream ids: `<milliseconds>-<sequence>`. */
const STREAM_ID = /^\d+-\d+$/;
/** The pause before the loop asks again after a failure. */
const RETRY_MS = 250;

type StreamEntry = [id: string, fields: string[]];

/** `@svc/sse`'s `EventLog` over a Redis Stream: pass it as `sse({ log })`. */
export class RedisEventLog {
  private readonly client: Redis;
  private readonly owned: boolean;
  private readonly reader: Redis;
  private readonly stream: string;
  private readonly bufferSize: number;
  private readonly blockMs: number;
  private readonly timeoutMs: number;
  private readonly reporter: OutageReporter;
  private listener: ((entry: RedisLoggedEvent) => void) | undefined;
  private gapListener: ((gap: RedisLoggedGap) => void) | undefined;
  /** This instance, in the gap entries it appends. */
  private readonly origin = randomBytes(8).toString('hex');
  /** Entities whose events this instance kept to itself since its last gap entry went through. */
  private readonly unshared = new Set<string>();
  /** The gap entry being appended, so two callers do not append it twice. */
  private announcing: Promise<void> | undefined;
  private closed = false;
  private newest: string | undefined;
  /** Local ids of events kept on this instance during an outage. */
  private readonly epoch = Date.now().toString(36);
  private localCount = 0;
  /**
   * Events kept local after an XADD that timed out: Redis may still have taken it, and then the stream brings it back;
   * this instance has delivered it already. Keyed by channel, event and commit time; forgotten after a minute.
   */
  private readonly keptLocal = new Map<string, number>();

  constructor(connection: RedisConnection, options: RedisRealtimeOptions = {}) {
    this.timeoutMs = positiveInteger(options.commandTimeoutMs, 250, 'commandTimeoutMs');
    this.bufferSize = positiveInteger(options.bufferSize, 1000, 'bufferSize');
    this.blockMs = positiveInteger(options.blockMs, 5000, 'blockMs');
    this.stream = options.stream ?? `${keyPrefixOf(options.keyPrefix)}events`;
    if (typeof this.stream !== 'string' || this.stream === '')
      throw new TypeError('@svc/redis: stream must be a non-empty string.');
    const { client, owned } = openRedis(connection, this.timeoutMs);
    this.client = client;
    this.owned = owned;
    // A blocking read holds its connection: the loop gets its own, which waits longer than one block.
    const readerOptions = { ...safeRedisOptions(this.blockMs + 2000), lazyConnect: true };
    this.reader = owned
      ? new Redis((connection as { url: string }).url, readerOptions)
      : client.duplicate(readerOptions);
    this.reporter = new OutageReporter(
      'realtime fan-out',
      'events reach only the subscribers of the instance that published them',
      options.onError,
      options.onRecover,
    );
    client.on('error', (error: unknown) => this.reporter.failed(error));
    // Ready is a command through (ioredis's ready check): the connection that publishes works again.
    client.on('ready', () => {
      this.reporter.succeeded(this.reporter.mark());
      void this.announceGap();
    });
    this.reader.on('error', (error: unknown) => this.reporter.failed(error, 'reader'));
  }

  /** The id of the newest event delivered here. */
  get lastId(): string | undefined {
    return this.newest;
  }

  listen(listener: (entry: RedisLoggedEvent) => void, onGap?: (gap: RedisLoggedGap) => void): void {
    if (this.listener) throw new Error('@svc/redis: this event log already has a transport; use one per sse().');
    this.listener = listener;
    this.gapListener = onGap;
    void this.loop();
  }

  /** XADD; when Redis cannot take it in time, the event is delivered here alone, under a local id. Never rejects. */
  async append(event: RealtimeEvent): Promise<void> {
    if (!isReady(this.client)) return this.keepLocal(event, new Error(`the connection is ${this.client.status}`));
    // The gap goes into the stream ahead of the events after it.
    if (this.unshared.size > 0) await this.announceGap();
    const sent = this.reporter.mark();
    try {
      await this.add('e', encodeEvent(event));
      this.reporter.succeeded(sent);
    } catch (error) {
      if (this.keptLocal.size >= 1000) this.keptLocal.delete(this.keptLocal.keys().next().value as string);
      this.keptLocal.set(fingerprint(event), Date.now());
      this.keepLocal(event, error, sent);
    }
  }

  /** The entries after `id` (XRANGE), or undefined when `id` is not in the stream any more (or never was). */
  async since(id: string): Promise<RedisLoggedEvent[] | undefined> {
    if (!STREAM_ID.test(id) || !isReady(this.client)) return undefined;
    let entries: StreamEntry[];
    const sent = this.reporter.mark();
    try {
      entries = (await bounded(this.client.xrange(this.stream, id, '+'), this.timeoutMs)) as StreamEntry[];
    } catch (error) {
      this.reporter.failed(error, 'commands', sent);
      return undefined;
    }
    // The stream is trimmed from its oldest end: while `id` is still there, nothing after it has gone, but for events
    // an instance kept to itself, which a gap entry names.
    if (entries[0]?.[0] !== id) return undefined;
    const after = entries.slice(1);
    if (after.some((entry) => gapOf(entry) !== undefined)) return undefined;
    return after.flatMap((entry) => this.decode(entry) ?? []);
  }

  /**
   * Whether events are shared right now: Redis answers a PING on the log's connection within the command timeout, and
   * the connection that reads the stream is up (once a transport listens). False at once while either is down, and
   * when Redis is too slow; events then reach only this instance's subscribers. It reports, never waits or throws.
   */
  ping(): Promise<boolean> {
    if (this.listener && !isReady(this.reader)) return Promise.resolve(false);
    return answersPing(this.client, this.timeoutMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reader.disconnect();
    if (!this.owned) return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /** XADD of one field (`e` an event, `g` a gap), the stream capped near `bufferSize`, within the command timeout. */
  private add(field: 'e' | 'g', value: string): Promise<unknown> {
    return bounded(
      this.client.xadd(this.stream, 'MAXLEN', '~', String(this.bufferSize), '*', field, value),
      this.timeoutMs,
    );
  }

  /** Delivers `event` here alone; `sentAt` is the mark of the XADD that failed, when one was sent. */
  private keepLocal(event: RealtimeEvent, cause: unknown, sentAt?: number): void {
    this.reporter.failed(cause, 'commands', sentAt);
    this.unshared.add(event.entity);
    this.deliver({ id: `local.${this.epoch}.${++this.localCount}`, event });
  }

  private deliver(entry: RedisLoggedEvent): void {
    this.newest = entry.id;
    this.listener?.(entry);
  }

  private missed(gap: RedisLoggedGap): void {
    this.newest = gap.id;
    this.gapListener?.(gap);
  }

  /**
   * Appends a gap entry naming the entities whose events this instance kept to itself, once Redis takes commands
   * again; a failure keeps them for the next try (the next append, or the next time the connection is ready).
   */
  private announceGap(): Promise<void> {
    if (this.unshared.size === 0 || this.closed) return Promise.resolve();
    this.announcing ??= (async () => {
      const entities = [...this.unshared];
      const entry: GapEntry = { entities, origin: this.origin };
      const sent = this.reporter.mark();
      try {
        await this.add('g', JSON.stringify(entry));
        this.reporter.succeeded(sent);
        for (const entity of entities) this.unshared.delete(entity);
      } catch (error) {
        this.reporter.failed(error, 'commands', sent);
      } finally {
        this.announcing = undefined;
      }
    })();
    return this.announcing;
  }

  /** Reads the stream from its end, then every entry after it, forever; a failure waits a little and reads on. */
  private async loop(): Promise<void> {
    let cursor: string | undefined;
    while (!this.closed) {
      // The mark of the XREAD in flight; a failure before it (connecting, finding the end) has none.
      let sent: number | undefined;
      try {
        if (this.reader.status === 'wait' || this.reader.status === 'end') await this.reader.connect();
        cursor ??= await this.end();
        sent = this.reporter.mark('reader');
        const reply = (await this.reader.xread('COUNT', 500, 'BLOCK', this.blockMs, 'STREAMS', this.stream, cursor)) as
          [string, StreamEntry[]][] | null;
        this.reporter.succeeded(sent, 'reader');
        for (const entry of reply?.[0]?.[1] ?? []) {
          cursor = entry[0];
          const gap = gapOf(entry);
          if (gap) {
            if (gap.origin !== this.origin) this.missed({ id: entry[0], entities: gap.entities });
            continue;
          }
          const decoded = this.decode(entry);
          if (decoded && !this.deliveredLocally(decoded.event)) this.deliver(decoded);
        }
      } catch (error) {
        if (this.closed) return;
        this.reporter.failed(error, 'reader', sent);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }

  /** The id of the stream's newest entry, or `0-0` for an empty stream: where this instance starts listening. */
  private async end(): Promise<string> {
    const last = (await this.reader.xrevrange(this.stream, '+', '-', 'COUNT', 1)) as StreamEntry[];
    return last[0]?.[0] ?? '0-0';
  }

  private deliveredLocally(event: RealtimeEvent): boolean {
    if (this.keptLocal.size === 0) return false;
    const now = Date.now();
    for (const [key, at] of this.keptLocal) if (now - at > 60_000) this.keptLocal.delete(key);
    return this.keptLocal.delete(fingerprint(event));
  }

  private decode([id, fields]: StreamEntry): RedisLoggedEvent | undefined {
    const index = fields.indexOf('e');
    const event = index === -1 ? undefined : decodeEvent(fields[index + 1] ?? '');
    return event ? { id, event } : undefined;
  }
}

/** The gap entry an entry holds, or undefined (an event, or a malformed entry). */
function gapOf([, fields]: StreamEntry): GapEntry | undefined {
  const index = fields.indexOf('g');
  if (index === -1) return undefined;
  try {
    const gap = JSON.parse(fields[index + 1] ?? '') as Partial<GapEntry>;
    const entities = Array.isArray(gap.entities) ? gap.entities.filter((name) => typeof name === 'string') : [];
    return { entities, origin: typeof gap.origin === 'string' ? gap.origin : '' };
  } catch {
    return undefined;
  }
}

function fingerprint(event: RealtimeEvent): string {
  return `${event.channel}|${event.event}|${event.occurredAt}`;
}

/**
 * `redisRealtime({ url } | { client }, options?)`: realtime events shared by every app instance through a Redis Stream,
 * for `realtimeTransports: [sse({ log: redisRealtime({ url }) })]`.
 */
export function redisRealtime(connection: RedisConnection, options?: RedisRealtimeOptions): RedisEventLog {
  return new RedisEventLog(connection, options);
}
