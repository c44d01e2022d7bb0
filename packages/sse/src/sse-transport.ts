/**
 * Server-Sent Events as a realtime transport: `publish` receives every committed event once; each open stream gets the
 * events its own subscription admits, with resumable ids from a bounded buffer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RealtimeEvent, RealtimeSubscription, RealtimeTransport } from '@svc/core';
import { EventBuffer } from './event-buffer';
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
  private readonly buffer: EventBuffer;
  private readonly connections = new Map<string, Set<SseConnection>>();
  private readonly settings: Required<Omit<SseOptions, 'onError'>> & Pick<SseOptions, 'onError'>;

  constructor(options: SseOptions = {}) {
    this.settings = {
      heartbeatMs: positive(options.heartbeatMs, 15000, 'heartbeatMs'),
      bufferSize: positive(options.bufferSize, 1000, 'bufferSize'),
      retryMs: positive(options.retryMs, 2000, 'retryMs'),
      maxPending: positive(options.maxPending, 1000, 'maxPending'),
      maxBufferedBytes: positive(options.maxBufferedBytes, 1024 * 1024, 'maxBufferedBytes'),
      onError: options.onError,
    };
    this.buffer = new EventBuffer(this.settings.bufferSize);
  }

  /** Open streams, per entity (for tests and metrics). */
  connectionCount(entity?: string): number {
    if (entity !== undefined) return this.connections.get(entity)?.size ?? 0;
    let count = 0;
    for (const set of this.connections.values()) count += set.size;
    return count;
  }

  async publish(event: RealtimeEvent): Promise<void> {
    const entry = this.buffer.append(event);
    for (const connection of this.connections.get(event.entity) ?? []) connection.enqueue(entry);
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
    // Registration and the replay snapshot happen in one synchronous step: nothing published in between is lost or
    // sent twice.
    const missed = args.lastEventId === undefined ? [] : this.buffer.since(args.lastEventId);
    if (missed === undefined) {
      const position = this.buffer.lastId;
      connection.write(
        `${position ? `id: ${position}\n` : ''}event: reset\ndata: ${JSON.stringify(resetOf(args.lastEventId))}\n\n`,
      );
    }
    let set = this.connections.get(subscription.entity);
    if (!set) this.connections.set(subscription.entity, (set = new Set()));
    set.add(connection);
    for (const entry of missed ?? []) connection.enqueue(entry);
    if (!connection.isOpen) this.release(connection);
    return connection;
  }

  /** Answers a HEAD of the subscription route: the stream's headers, and no stream. */
  head(response: ServerResponse): void {
    response.writeHead(200, SSE_HEADERS);
    response.end();
  }

  /** Ends every open stream (the app is shutting down). */
  close(): void {
    for (const set of [...this.connections.values()]) for (const connection of [...set]) connection.close();
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

function resetOf(lastEventId: string | undefined): { reason: string; lastEventId?: string } {
  return {
    reason: 'The events after the id you resumed from are no longer kept. Read the current state again.',
    ...(lastEventId !== undefined ? { lastEventId } : {}),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`sse(): ${name} must be a positive integer; got ${String(value)}.`);
  return value;
}
