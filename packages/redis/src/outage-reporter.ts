/**
 * Reports an outage once: the first failure after a healthy stretch is reported, the ones after it are not, until
 * every connection that failed has a command go through again (reported too). A request never sees any of it.
 *
 * A part may use more than one connection (the event log publishes on one and reads the stream on another). Each
 * fails and recovers on its own; the part is down while any of them is, so one connection's success does not end an
 * outage another is still in, and a second connection failing meanwhile is not a second outage.
 *
 * A command sent before its connection failed can still be answered after the failure was reported (a blocking read
 * that times out while the server shuts down, say). Such an answer says nothing about recovery, so a caller takes a
 * `mark` of the connection before it sends and hands it to `succeeded`: only a command sent after the failure ends it.
 * The same holds the other way: a command sent during an outage can time out after the connection recovered (a
 * paused server that answers its backlog out of order), which is not a new outage, so a caller hands its mark to
 * `failed` too. A mark counts the connection's failures and recoveries.
 */

/** Which of a part's connections a command went over. */
export type OutageConnection = 'commands' | 'reader';

export class OutageReporter {
  /** The connections failing now. */
  private readonly failing = new Set<OutageConnection>();
  /** Failures and recoveries of each connection so far: its mark. */
  private readonly changes = new Map<OutageConnection, number>();

  constructor(
    /** What degrades, for the messages: "the result cache", "realtime fan-out". */
    private readonly part: string,
    /** What happens meanwhile: "reads are served uncached", ... */
    private readonly fallback: string,
    private readonly onError: ((error: Error) => void) | undefined,
    private readonly onRecover: ((message: string) => void) | undefined,
  ) {}

  /** Redis is failing now, on some connection. */
  get isDown(): boolean {
    return this.failing.size > 0;
  }

  /** Taken before a command is sent on `connection`, and given to `succeeded` or `failed` when it settles. */
  mark(connection: OutageConnection = 'commands'): number {
    return this.changes.get(connection) ?? 0;
  }

  /**
   * A command sent on `connection` at `sentAt` (its `mark`) failed, or the connection did (no mark). A command sent
   * before the connection's last recovery does not begin a new outage.
   */
  failed(cause: unknown, connection: OutageConnection = 'commands', sentAt?: number): void {
    if (this.failing.has(connection)) return;
    if (sentAt !== undefined && sentAt !== this.mark(connection)) return;
    this.failing.add(connection);
    this.changes.set(connection, this.mark(connection) + 1);
    if (this.failing.size > 1) return;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = new Error(
      `Svc Redis: ${this.part} cannot reach Redis (${reason}); ${this.fallback} until it is back.`,
      {
        cause,
      },
    );
    try {
      if (this.onError) return this.onError(error);
    } catch {
      // A reporter that throws must not turn an outage into a failed request.
    }
    globalThis.console?.error(error.message);
  }

  /**
   * A command sent on `connection` at `sentAt` (its `mark`) went through. One sent before the connection failed does
   * not end its failure; the outage ends when no connection is failing.
   */
  succeeded(sentAt: number, connection: OutageConnection = 'commands'): void {
    if (!this.failing.has(connection) || sentAt !== this.mark(connection)) return;
    this.failing.delete(connection);
    this.changes.set(connection, sentAt + 1);
    if (this.failing.size > 0) return;
    const message = `Svc Redis: ${this.part} reaches Redis again.`;
    try {
      if (this.onRecover) return this.onRecover(message);
    } catch {
      // As above.
    }
    globalThis.console?.info(message);
  }
}
