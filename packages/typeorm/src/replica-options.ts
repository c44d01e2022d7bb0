/** `typeorm({ replicas })`: how reads on a replicated DataSource keep read-your-writes, checked when the app boots. */
import { ConfigurationException } from '@svc/core';

/** The consistency token: a write's answer carries it, and a read that sends it back is not older than that write. */
export const READ_AFTER_HEADER = 'X-Svc-Read-After';

export interface ReplicaOptions {
  /**
   * How long a caller's reads may wait for a replica to replay the caller's own write before they go to the primary;
   * a replica that has not replayed a write this old is skipped for every caller until it catches up.
   * @default 2000
   */
  readonly maxLagMs?: number;
  /**
   * Who "the caller" is whose reads follow its own writes, from the operation's context. Undefined: the request
   * itself (the reads of one request, and those of a later request that sends the `X-Svc-Read-After` token back).
   * @default the request's `user.id`, when it has one
   */
  readonly caller?: (context: Readonly<Record<string, unknown>>) => string | undefined;
  /**
   * Told, at most once per ten seconds per reason, that reads went to the primary because a replica could not serve
   * them: `unreachable` (it refused or dropped the connection), `lagging` (past `maxLagMs`).
   * @default console.warn
   */
  readonly onSkip?: (reason: ReplicaSkipReason, error?: unknown) => void;
}

export type ReplicaSkipReason = 'unreachable' | 'lagging';

/** The options with their defaults, or a ConfigurationException naming the first bad one. */
export interface ResolvedReplicaOptions {
  readonly maxLagMs: number;
  readonly caller: (context: Readonly<Record<string, unknown>>) => string | undefined;
  readonly onSkip: (reason: ReplicaSkipReason, error?: unknown) => void;
}

export function resolveReplicaOptions(options: ReplicaOptions | undefined): ResolvedReplicaOptions {
  const { maxLagMs = 2000, caller = userOfRequest, onSkip = warn } = options ?? {};
  if (typeof maxLagMs !== 'number' || !Number.isFinite(maxLagMs) || maxLagMs < 0) {
    throw new ConfigurationException({
      path: 'infrastructure.replicas.maxLagMs',
      message: `replicas.maxLagMs must be a number of milliseconds, 0 or more (got ${String(maxLagMs)}). Use 2000, the default, if unsure.`,
    });
  }
  for (const [name, value] of [
    ['caller', caller],
    ['onSkip', onSkip],
  ] as const) {
    if (typeof value !== 'function') {
      throw new ConfigurationException({
        path: `infrastructure.replicas.${name}`,
        message: `replicas.${name} must be a function (got ${typeof value}). Pass a function, or leave it out for the default.`,
      });
    }
  }
  return { maxLagMs, caller, onSkip };
}

/** `user:<id>` for a request that carries `user.id` (Passport and most guards put the user there). */
function userOfRequest(context: Readonly<Record<string, unknown>>): string | undefined {
  const user = (context['request'] as { user?: { id?: unknown } } | undefined)?.user;
  const id = user?.id;
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? `user:${String(id)}` : undefined;
}

function warn(reason: ReplicaSkipReason, error?: unknown): void {
  const why = reason === 'lagging' ? 'it lags past replicas.maxLagMs' : 'it could not be reached';
  globalThis.console?.warn(`Svc: reads go to the primary: a replica was skipped as ${why}.`, error ?? '');
}
