/**
 * Server-Sent Events as a realtime transport: `publish` receives every committed event once and appends it to the event
 * log; each open stream gets the events the log delivers that its own subscription admits, with resumable ids.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeSubscription, RealtimeTransport } from '@svc/core/spi';
import { EventBuffer } from './event-buffer';
import type { EventLog, LoggedEvent, LoggedEventsSince, LoggedGap } from './event-log';
import { SseConnection } from './sse-connection';

export interface SseOptions {
  /** Comment lines sent on an idle stream, so proxies keep it open. @default 15000 */
  readonly heartbeatMs?: number;
  /** Events kept for resume (`Last-Event-ID`). @default 1000 */
  readonly bufferSize?: number;
  /** The reconnection delay sent to clients (`retry:`). @default 2000 */
  readonly retryMs?: number;
  /** Events queued for one subscriber before it is disconnected as too slow. @default 1000 */
  readonly maxPending?: number;
  /** Bytes the client has not yet taken before it is disconnected as too slow. @default 1048576 */
  readonly maxBufferedBytes?: number;
  /** A subscriber's admission check failed (its policy threw, say): the event is not delivered to it. */
  readonly onError?: (error: unknown) => void;
  /**
   * Where events are kept for resume and delivered from. @default an in-memory log of `bufferSize` events in this
   * process; `redisRealtime(...)` from `@svc/redis` shares one between app instances.
   */
  readonly log?: EventLog;
}

/** What a binding hands over to open one stream. */
export interface SseStreamArgs {
  readonly subscription: RealtimeSubscription;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** `Last-Event-ID`, or `?lastEventId=` from clients that cannot set headers. */
  readonly lastEventId?: string;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

export class SseTransport implements RealtimeTransport {
  readonly name = 'sse';
  private readonly log: EventLog;
  private readonly connections = new Map<string, Set<SseConnection>>();
  private readonly settings: Required<Omit<SseOptions, 'onError' | 'log'>> & Pick<SseOptions, 'onError'>;

  constructor(options: SseOptions = {}) {
    this.settings = {
      heartbeatMs: positive(options.heartbeatMs, 15000, 'heartbeatMs'),
      bufferSize: positive(options.bufferSize, 1000, 'bufferSize'),
      retryMs: positive(options.retryMs, 2000, 'retryMs'),
      maxPending: positive(options.maxPending, 1000, 'maxPending'),
      maxBufferedBytes: positive(options.maxBufferedBytes, 1024 * 1024, 'maxBufferedBytes'),
      onError: options.onError,
    };
    this.log = options.log ?? new EventBuffer(this.settings.bufferSize);
    this.log.listen(
      (entry) => this.deliver(entry),
      (gap) => this.missed(gap),
    );
  }

  /** Open streams, per entity (for tests and metrics). */
  connectionCount(entity?: string): number {
    if (entity !== undefined) return this.connections.get(entity)?.size ?? 0;
    let count = 0;
    for (const set of this.connections.values()) count += set.size;
    return count;
  }

  async publish(event: RealtimeEvent): Promise<void> {
    await this.log.append(event);
  }

  /** An event the log delivered (published here or, with a shared log, on another instance): to every open stream. */
  private deliver(entry: LoggedEvent): void {
    for (const connection of this.connections.get(entry.event.entity) ?? []) connection.enqueue(entry);
  }

  /**
   * Events of these entities were published on another instance and never shared: their subscribers are told to read
   * the current state again, at the gap's place in the stream (its id is where they resume from).
   */
  private missed(gap: LoggedGap): void {
    const frame = resetFrame(gap.id, { reason: GAP_REASON });
    for (const entity of gap.entities)
      for (const connection of this.connections.get(entity) ?? []) connection.enqueueFrame(frame);
  }

  /** Opens a stream: headers and the retry hint at once, then missed events (or a reset), then live ones. */
  stream(args: SseStreamArgs): SseConnection {
    const { response, subscription } = args;
    response.writeHead(200, SSE_HEADERS);
    response.flushHeaders?.();
    args.request.socket?.setKeepAlive?.(true);
    args.request.socket?.setNoDelay?.(true);
    const connection = new SseConnection({
      subscription,
      response,
      heartbeatMs: this.settings.heartbeatMs,
      maxPending: this.settings.maxPending,
      maxBufferedBytes: this.settings.maxBufferedBytes,
      onClose: (closed) => this.release(closed),
      onError: (error) => this.report(error),
    });
    connection.write(`retry: ${this.settings.retryMs}\n\n`);
    // The connection is registered before the replay is read: a live event published meanwhile is either in the replay
    // or after it. A synchronous log answers in the same step; an asynchronous one holds live events until it has.
    const position = this.log.lastId;
    let set = this.connections.get(subscription.entity);
    if (!set) this.connections.set(subscription.entity, (set = new Set()));
    set.add(connection);
    if (args.lastEventId === undefined) return this.opened(connection);
    const lastEventId = args.lastEventId;
    let missed: LoggedEventsSince | Promise<LoggedEventsSince>;
    try {
      missed = this.log.since(lastEventId);
    } catch {
      missed = undefined;
    }
    if (!isPromise(missed)) return this.replay(connection, lastEventId, missed, position);
    connection.hold();
    missed.then(
      (entries) => this.replay(connection, lastEventId, entries, position),
      () => this.replay(connection, lastEventId, undefined, position),
    );
    return connection;
  }

  /** Sends what the subscriber missed, or a reset when the log cannot say, then the live events. */
  private replay(
    connection: SseConnection,
    lastEventId: string,
    missed: LoggedEventsSince,
    position: string | undefined,
  ): SseConnection {
    if (missed === undefined) {
      connection.write(resetFrame(position, resetOf(lastEventId)));
    }
    connection.resume(missed ?? []);
    return this.opened(connection);
  }

  private opened(connection: SseConnection): SseConnection {
    if (!connection.isOpen) this.release(connection);
    return connection;
  }

  /** Answers a HEAD of the subscription route: the stream's headers, and no stream. */
  head(response: ServerResponse): void {
    response.writeHead(200, SSE_HEADERS);
    response.end();
  }

  /** Ends every open stream and lets go of the log (the app is shutting down). */
  close(): void {
    for (const set of [...this.connections.values()]) for (const connection of [...set]) connection.close();
    void Promise.resolve()
      .then(() => this.log.close?.())
      .catch((error: unknown) => this.report(error));
  }

  private release(connection: SseConnection): void {
    const set = this.connections.get(connection.entity);
    set?.delete(connection);
    if (set?.size === 0) this.connections.delete(connection.entity);
  }

  private report(error: unknown): void {
    if (this.settings.onError) return this.settings.onError(error);
    globalThis.console?.error('Svc SSE: an event could not be checked for a subscriber; it was not delivered.', error);
  }
}

/** `sse(options?)`: the Server-Sent Events transport, for `realtimeTransports: [sse()]`. */
export function sse(options?: SseOptions): SseTransport {
  return new SseTransport(options);
}

/** A `reset` frame, at `id` (where a resume continues from) when there is one. */
function resetFrame(id: string | undefined, body: { reason: string }): string {
  return `${id ? `id: ${id}\n` : ''}event: reset\ndata: ${JSON.stringify(body)}\n\n`;
}

const GAP_REASON =
  'Events were published on another instance while the shared event stream was unreachable, and never reached this ' +
  'stream. Read the current state again.';

function resetOf(lastEventId: string | undefined): { reason: string; lastEventId?: string } {
  return {
    reason: 'The events after the id you resumed from are no longer kept. Read the current state again.',
    ...(lastEventId !== undefined ? { lastEventId } : {}),
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`sse(): ${name} must be a positive integer; got ${String(value)}.`);
  return value;
}
