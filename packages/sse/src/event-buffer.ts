/**
 * The default event log: a bounded memory of recent events in this process. Each event gets the next position, and a
 * subscriber that reconnects with the last position it saw gets what came after it, or learns that it has aged out.
 */
import type { RealtimeEvent } from '@svc/core';
import type { EventLog, LoggedEvent } from './event-log';

export class EventBuffer implements EventLog {
  private readonly entries: LoggedEvent[] = [];
  private next = 1;
  /** Tells this buffer's ids from an earlier process's, so a resume across a restart is a reset, not a wrong replay. */
  private readonly epoch = Date.now().toString(36);
  private listener: ((entry: LoggedEvent) => void) | undefined;

  constructor(private readonly size: number) {}

  listen(listener: (entry: LoggedEvent) => void): void {
    this.listener = listener;
  }

  /** Keeps the event under the next position and delivers it at once. */
  append(event: RealtimeEvent): void {
    const entry = { id: `${this.epoch}-${this.next++}`, event };
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.shift();
    this.listener?.(entry);
  }

  /** The id of the newest event, or undefined before the first. */
  get lastId(): string | undefined {
    return this.entries[this.entries.length - 1]?.id;
  }

  /**
   * The events after `id`, oldest first; undefined when `id` is not one this buffer can resume from (aged out, from
   * another process, or malformed).
   */
  since(id: string): LoggedEvent[] | undefined {
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

  private position(entry: LoggedEvent): number {
    return Number(entry.id.slice(entry.id.indexOf('-') + 1));
  }
}
