/**
 * The row an event is about, as stored: what decides which subscribers may see the event (their `filter.apply` and
 * filter may name columns that are never served). It travels beside the event, never in it: a transport that hands
 * events to the outside world sees only the public payload. A transport that carries events between processes keeps
 * it with `realtimeEnvelopeOf` and restores it with `realtimeEventOf`.
 */
import type { RealtimeEvent } from './realtime-event';

const subjects = new WeakMap<RealtimeEvent, Readonly<Record<string, unknown>>>();

/** Attaches the stored row an event is about (the row before the delete, for `deleted`). */
export function attachEventSubject(
  event: RealtimeEvent,
  row: Readonly<Record<string, unknown>> | null | undefined,
): void {
  if (row) subjects.set(event, row);
}

/** The stored row an event is about, when this process knows it. */
export function eventSubjectOf(event: RealtimeEvent): Readonly<Record<string, unknown>> | undefined {
  return subjects.get(event);
}

/** An event with its subject, for a transport that carries events between app instances (a server-side channel). */
export interface RealtimeEnvelope {
  readonly event: RealtimeEvent;
  readonly subject?: Readonly<Record<string, unknown>>;
}

export function realtimeEnvelopeOf(event: RealtimeEvent): RealtimeEnvelope {
  const subject = subjects.get(event);
  return subject ? { event, subject } : { event };
}

/** The event of an envelope, its subject attached again. */
export function realtimeEventOf(envelope: RealtimeEnvelope): RealtimeEvent {
  const event = { ...envelope.event };
  attachEventSubject(event, envelope.subject);
  return event;
}
