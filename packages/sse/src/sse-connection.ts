/**
 * One subscriber's open stream: events reach it in publish order, each admitted (or not) by its own subscription;
 * heartbeats keep proxies from closing it; a subscriber that falls too far behind is disconnected, and a closed
 * connection lets go of everything it held.
 */
import type { ServerResponse } from 'node:http';
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeSubscription } from '@svc/core/spi';
import type { LoggedEvent } from './event-log';

export interface SseConnectionOptions {
  readonly subscription: RealtimeSubscription;
  readonly response: ServerResponse;
  readonly heartbeatMs: number;
  /** Events waiting for their admission check before the subscriber counts as too slow. */
  readonly maxPending: number;
  /** Bytes written but not yet taken by the client before the subscriber counts as too slow. */
  readonly maxBufferedBytes: number;
  /** Called once, when the connection ends for any reason. */
  readonly onClose: (connection: SseConnection) => void;
  /** A failed admission check (a policy that threw): reported, and the event is not delivered. */
  readonly onError: (error: unknown) => void;
}

export class SseConnection {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private closed = false;
  /** Live events (and frames, such as a reset) held back while a replay is read (an asynchronous log), or undefined. */
  private held: (LoggedEvent | string)[] | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: SseConnectionOptions) {
    const { response } = options;
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
    response.on('close', () => this.close());
    response.on('error', () => this.close());
  }

  get entity(): string {
    return this.options.subscription.entity;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Holds live events back until `resume`: the replay is still being read. */
  hold(): void {
    this.held ??= [];
  }

  /**
   * Sends the replay, then the live events held meanwhile that the replay did not already contain: a live event that
   * arrived while the replay was read is in it or after it, so nothing is lost or sent twice.
   */
  resume(replay: readonly LoggedEvent[]): void {
    const held = this.held ?? [];
    this.held = undefined;
    const replayed = new Set(replay.map((entry) => entry.id));
    for (const entry of replay) this.enqueue(entry);
    for (const entry of held) {
      if (typeof entry === 'string') this.enqueueFrame(entry);
      else if (!replayed.has(entry.id)) this.enqueue(entry);
    }
  }

  /** Queues an event for this subscriber, behind the ones before it. */
  enqueue(entry: LoggedEvent): void {
    if (this.closed) return;
    if (this.held) {
      if (this.held.push(entry) > this.options.maxPending) this.close();
      return;
    }
    if (++this.pending > this.options.maxPending) return this.close();
    this.tail = this.tail.then(async () => {
      this.pending--;
      if (this.closed) return;
      // Nothing one event does (a refusing admit, a value JSON cannot write) may break the chain or the process.
      try {
        const admitted = await this.options.subscription.admit(entry.event);
        if (admitted) this.write(frameOf(entry, admitted));
      } catch (error) {
        this.options.onError(error);
      }
    });
  }

  /** Queues a frame every subscriber gets as it is (a reset), behind the events before it. */
  enqueueFrame(frame: string): void {
    if (this.closed) return;
    if (this.held) {
      if (this.held.push(frame) > this.options.maxPending) this.close();
      return;
    }
    this.tail = this.tail.then(() => this.write(frame));
  }

  /** Writes a frame now (the retry hint, a reset), ahead of nothing queued. */
  write(frame: string): void {
    if (this.closed) return;
    const { response } = this.options;
    if (response.writableLength > this.options.maxBufferedBytes) return this.close();
    response.write(frame);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    if (!this.options.response.writableEnded) this.options.response.end();
    this.options.onClose(this);
  }
}

/** The SSE message of an event, built once for every subscriber that receives the event as published. */
const frames = new WeakMap<LoggedEvent, string>();

function frameOf(entry: LoggedEvent, admitted: RealtimeEvent): string {
  const shared = admitted === entry.event;
  const known = shared ? frames.get(entry) : undefined;
  if (known !== undefined) return known;
  const frame = `id: ${entry.id}\nevent: ${admitted.event}\ndata: ${JSON.stringify(admitted)}\n\n`;
  if (shared) frames.set(entry, frame);
  return frame;
}
