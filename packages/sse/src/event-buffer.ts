/**
 * The bounded memory of recent events that resume reads from: each event gets the next position, and a subscriber
 * that reconnects with the last position it saw gets what came after it, or learns that it has aged out.
 */
import type { RealtimeEvent } from '@svc/core';

export interface BufferedEvent {
  /** The SSE id: this buffer's epoch and the event's position, `<epoch>-<position>`. */
  readonly id: string;
  readonly event: RealtimeEvent;
}

export class EventBuffer {
  private readonly entries: BufferedEvent[] = [];
  private next = 1;
  /** Tells this buffer's ids from an earlier process's, so a resume across a restart is a reset, not a wrong replay. */
  private readonly epoch = Date.now().toString(36);

  constructor(private readonly size: number) {}

  append(event: RealtimeEvent): BufferedEvent {
    const entry = { id: `${this.epoch}-${this.next++}`, event };
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.shift();
    return entry;
  }

  /** The id of the newest event, or undefined before the first. */
  get lastId(): string | undefined {
    return this.entries[this.entries.length - 1]?.id;
  }

  /**
   * The events after `id`, oldest first; undefined when `id` is not one this buffer can resume from (aged out, from
   * another process, or malformed).
   */
  since(id: string): BufferedEvent[] | undefined {
    const match = /^([a-z0-9]+)-(\d+)$/.exec(id);
    if (!match || match[1] !== this.epoch) return undefined;
    const position = Number(match[2]);
    if (position >= this.next) return undefined;
    if (position === this.next - 1) return [];
    const first = this.entries[0];
    // Resuming from just before the oldest kept event is still exact; from further back, events were lost.
    if (!first || position < this.position(first) - 1) return undefined;
    return this.entries.filter((entry) => this.position(entry) > position);
  }

  private position(entry: BufferedEvent): number {
    return Number(entry.id.slice(entry.id.indexOf('-') + 1));
  }
}
