/** The realtime port: what a committed write publishes, and what a transport that carries it implements. */
import type { RealtimeEventId } from '../config/svc-settings';

/** One event, published after the write's transaction committed. */
export interface RealtimeEvent {
  readonly event: RealtimeEventId;
  /** The entity's name. */
  readonly entity: string;
  /** The row's primary key: its value, or the values joined by `,` for a composite key. */
  readonly id: unknown;
  /** `<Entity>.<id>`. */
  readonly channel: string;
  /** ISO 8601, when the write committed. */
  readonly occurredAt: string;
  /** The row as the entity serves it (`select.fields`); null on `deleted`. */
  readonly item: Readonly<Record<string, unknown>> | null;
  /** The fields the write changed. */
  readonly changed?: readonly string[];
}

/** Carries events to subscribers (SSE, a message broker, ...). A failure never fails the write that published. */
export interface RealtimeTransport {
  readonly name: string;
  publish(event: RealtimeEvent): Promise<void>;
}
