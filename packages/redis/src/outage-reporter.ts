/**
 * Reports an outage once: the first failure after a healthy stretch is reported, the ones after it are not, until a
 * success ends the outage (reported too). A request never sees any of it.
 *
 * Several connections share one reporter, and a command sent before an outage began can still be answered after it
 * was reported (a blocking read that times out while the server shuts down, say). Such an answer says nothing about
 * recovery, so a caller takes a `mark` before it sends and hands it to `succeeded`: only a command sent during the
 * outage ends it.
 */

export class OutageReporter {
  private down = false;
  /** Outages begun so far: a mark. */
  private outages = 0;

  constructor(
    /** What degrades, for the messages: "the result cache", "realtime fan-out". */
    private readonly part: string,
    /** What happens meanwhile: "reads are served uncached", ... */
    private readonly fallback: string,
    private readonly onError: ((error: Error) => void) | undefined,
    private readonly onRecover: ((message: string) => void) | undefined,
  ) {}

  /** Redis is failing now. */
  get isDown(): boolean {
    return this.down;
  }

  /** Taken before a command is sent, and given to `succeeded` when it answers. */
  get mark(): number {
    return this.outages;
  }

  failed(cause: unknown): void {
    if (this.down) return;
    this.down = true;
    this.outages++;
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

  /** A command sent at `sentAt` (a `mark`) went through; one sent before the outage began does not end it. */
  succeeded(sentAt: number): void {
    if (!this.down || sentAt !== this.outages) return;
    this.down = false;
    const message = `Svc Redis: ${this.part} reaches Redis again.`;
    try {
      if (this.onRecover) return this.onRecover(message);
    } catch {
      // As above.
    }
    globalThis.console?.info(message);
  }
}
