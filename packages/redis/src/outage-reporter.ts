/**
 * Reports an outage once: the first failure after a healthy stretch is reported, the ones after it are not, until a
 * success ends the outage (reported too). A request never sees any of it.
 */

export class OutageReporter {
  private down = false;

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

  failed(cause: unknown): void {
    if (this.down) return;
    this.down = true;
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

  succeeded(): void {
    if (!this.down) return;
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
