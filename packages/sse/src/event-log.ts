/**
 * The event-log port of the SSE transport: where published events are kept for resume and where every open stream's
 * events come from. The default keeps them in this process (`EventBuffer`); a shared log (`@svc/redis`) carries
 * them between app instances, so a subscriber on one instance hears a write made on another and can resume anywhere.
 */
import type { RealtimeEvent } from '@svc/core';

/** One logged event with its SSE id, a position the log can resume from. */
export interface LoggedEvent {
  readonly id: string;
  /** The event, with its subject (the stored row that decides who may see it) attached. */
  readonly event: RealtimeEvent;
}

/** What `since` answers: the events after an id, or undefined when the log cannot resume from it (a reset). */
export type LoggedEventsSince = readonly LoggedEvent[] | undefined;

/**
 * A place in a shared log where events are missing: another instance could not share events of these entities (it
 * kept them to its own subscribers while the log was unreachable). The id is a position the log can resume from.
 */
export interface LoggedGap {
  readonly id: string;
  readonly entities: readonly string[];
}

export interface EventLog {
  /**
   * Starts delivering: every event appended from now on, by this process or (for a shared log) any other, reaches
   * `listener` once, in log order. A shared log that learns of events another instance could not share tells
   * `onGap`, in the same order. Called once, by the transport that owns the log.
   */
  listen(listener: (entry: LoggedEvent) => void, onGap?: (gap: LoggedGap) => void): void;
  /** Appends an event; it reaches the listener through the log. Never rejects: a log that cannot share keeps it local. */
  append(event: RealtimeEvent): void | Promise<void>;
  /**
   * The events after `id`, oldest first, or undefined when `id` is not a position this log can resume from exactly
   * (aged out, from another log, malformed) or a gap follows it. Synchronous when the log can answer at once.
   */
  since(id: string): LoggedEventsSince | Promise<LoggedEventsSince>;
  /** The id of the newest event delivered here, for the `reset` frame; undefined before the first. */
  readonly lastId: string | undefined;
  /** Lets go of connections and timers (the app is shutting down). */
  close?(): void | Promise<void>;
}
