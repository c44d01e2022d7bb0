/**
 * How `@svc/redis` reaches Redis: a URL it connects itself (with settings that never let a request wait on an outage),
 * or an ioredis client the app already has. Either way every command is bounded by its own timeout, and a command is
 * not even sent while the connection is down, so an outage costs a request nothing but the cache or the fan-out.
 */
import Redis, { type RedisOptions } from 'ioredis';

/** `{ url }` (`redis://host:port/db`) or `{ client }` (an ioredis client; `@svc/redis` never closes it). */
export type RedisConnection = { readonly url: string } | { readonly client: Redis };

/** Options every `@svc/redis` part takes besides the connection. */
export interface RedisPartOptions {
  /** Prefix of every key and stream name, so apps (and test runs) sharing one Redis stay apart. @default 'svc:' */
  readonly keyPrefix?: string;
  /** How long one command may take before it counts as failed. @default 250 */
  readonly commandTimeoutMs?: number;
  /** Redis became unreachable or too slow: called once per outage, not per request. @default console.error */
  readonly onError?: (error: Error) => void;
  /** Redis answers again after an outage. @default console.info */
  readonly onRecover?: (message: string) => void;
}

/** The ioredis settings of a connection `@svc/redis` opens: no offline queue, few retries, quick reconnects. */
export function safeRedisOptions(commandTimeoutMs: number): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1000,
    // Reconnect soon and keep trying: recovery needs no restart.
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1000),
  };
}

/** The client to use, and whether this part opened it (and so closes it). */
export function openRedis(connection: RedisConnection, commandTimeoutMs: number): { client: Redis; owned: boolean } {
  if ('client' in connection && connection.client) return { client: connection.client, owned: false };
  const url = (connection as { url?: unknown }).url;
  if (typeof url !== 'string' || url === '')
    throw new TypeError('@svc/redis: pass { url: "redis://host:port" } or { client } (an ioredis client).');
  return { client: new Redis(url, safeRedisOptions(commandTimeoutMs)), owned: true };
}

/** True when the client can take a command now; a command sent otherwise would only wait or fail. */
export function isReady(client: Redis): boolean {
  return client.status === 'ready';
}

/**
 * Resolves true once the client can take commands, or false after `ms` (Redis down or slow to connect: the part keeps
 * reconnecting and serves without Redis meanwhile).
 */
export function whenReady(client: Redis, ms: number): Promise<boolean> {
  if (isReady(client)) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = (): void => done(true);
    // Not unref'd: a boot waiting here must keep the process alive until Redis answers or the wait ends.
    const timer = setTimeout(() => done(false), ms);
    client.on('ready', onReady);
  });
}

/**
 * True when Redis answers a PING on `client` within `ms`. False at once while the client cannot take a command (the
 * parts send none then either), and false when the answer is late or an error: it reports, never waits or throws.
 */
export async function answersPing(client: Redis, ms: number): Promise<boolean> {
  if (!isReady(client)) return false;
  try {
    return (await bounded(client.ping(), ms)) === 'PONG';
  } catch {
    return false;
  }
}

/** `work`, failing after `ms` if it has not settled (a client the app passed may have no timeout of its own). */
export function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms.`)), ms);
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A positive integer option, or a TypeError naming it. */
export function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`@svc/redis: ${name} must be a positive integer; got ${String(value)}.`);
  return value;
}

/** The key prefix, checked: text, so keys stay readable in redis-cli. */
export function keyPrefixOf(value: string | undefined): string {
  if (value === undefined) return 'svc:';
  if (typeof value !== 'string') throw new TypeError('@svc/redis: keyPrefix must be a string.');
  return value;
}
