/**
 * Hands committed writes' events to the realtime transports. Publishing never waits on a transport inside the request
 * and a transport that fails never fails the write: its error goes to `realtime.onPublishError`, or to the console.
 */
import type { ResolvedSettings } from '../config/svc-settings';
import type { RealtimeEvent, RealtimeTransport } from './realtime-event';

/** Runs `start` detached from the operation that published (its trace); by default as it is. */
export type Detach = (start: () => void) => void;

export class RealtimePublisher {
  constructor(
    private readonly transports: readonly RealtimeTransport[] = [],
    /**
     * What a delivery starts in: outside the writer's operation, so each subscriber's policy and filter checks (and
     * their statements) are neither counted nor traced as the writer's, which has usually ended by then.
     */
    private readonly detach: Detach = (start) => start(),
  ) {}

  /** At least one transport carries events: realtime settings may be on. */
  get hasTransports(): boolean {
    return this.transports.length > 0;
  }

  /** `readable`, when given, resolves once the events' rows can be read where subscribers read: they wait on it. */
  publish(events: readonly RealtimeEvent[], settings: ResolvedSettings, readable?: Promise<void>): void {
    for (const transport of this.transports) {
      for (const event of events) {
        // Started after the caller's own continuation, so the response never waits on it.
        this.detach(
          () =>
            void Promise.resolve(readable)
              .then(() => transport.publish(event))
              .catch((error: unknown) => report(error, transport, event, settings)),
        );
      }
    }
  }
}

function report(error: unknown, transport: RealtimeTransport, event: RealtimeEvent, settings: ResolvedSettings): void {
  const onError = settings.realtime === false ? undefined : settings.realtime.onPublishError;
  try {
    if (onError) return onError(error, transport, event);
  } catch (inner) {
    error = inner;
  }
  globalThis.console?.error(`Svc: realtime transport '${transport.name}' failed to publish ${event.channel}:`, error);
}
