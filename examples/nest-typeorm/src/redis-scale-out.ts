/**
 * Scale-out: with `REDIS_URL` set, every instance of the app shares the result cache and realtime events through
 * Redis, so several instances behind one load balancer answer as one. Without it, both stay in the process.
 */
import type { SseOptions } from '@svc/sse';
import type { SvcModuleOptions } from '@svc/nestjs';
import { redisCacheStore, redisRealtime, type RedisCacheStore, type RedisEventLog } from '@svc/redis';

/**
 * The Redis parts of one app instance, made once: Svc serves through them and `/health` asks them, so the check
 * reports the connections the app really uses. Neither is there without a Redis URL.
 */
export class ScaleOut {
  constructor(
    /** The result-cache store, shared by every instance. */
    readonly cache: RedisCacheStore | undefined,
    /** The SSE transport's event log on a Redis Stream, shared by every instance. */
    readonly events: RedisEventLog | undefined,
  ) {}
}

/** The Redis parts for `redisUrl`, or none when there is no Redis. */
export function createScaleOut(redisUrl: string | undefined): ScaleOut {
  if (!redisUrl) return new ScaleOut(undefined, undefined);
  const options = { keyPrefix: 'bookstore:' };
  return new ScaleOut(redisCacheStore({ url: redisUrl }, options), redisRealtime({ url: redisUrl }, options));
}

/** The SSE transport's options: events on a Redis Stream shared by every instance, when there is a Redis. */
export function sharedEvents(scaleOut: ScaleOut): SseOptions {
  return scaleOut.events ? { log: scaleOut.events } : {};
}

/** The result-cache store: in Redis, shared by every instance, when there is a Redis. */
export function sharedCache(scaleOut: ScaleOut): Pick<SvcModuleOptions, 'cacheStore'> {
  return scaleOut.cache ? { cacheStore: scaleOut.cache } : {};
}
