/**
 * Scale-out: with `REDIS_URL` set, every instance of the app shares the result cache and realtime events through
 * Redis, so several instances behind one load balancer answer as one. Without it, both stay in the process.
 */
import type { SseOptions } from '@svc/sse';
import type { SvcModuleOptions } from '@svc/nestjs';
import { redisCacheStore, redisRealtime } from '@svc/redis';

/** The SSE transport's options: events on a Redis Stream shared by every instance, when there is a Redis. */
export function sharedEvents(redisUrl: string | undefined): SseOptions {
  return redisUrl ? { log: redisRealtime({ url: redisUrl }, { keyPrefix: 'bookstore:' }) } : {};
}

/** The result-cache store: in Redis, shared by every instance, when there is a Redis. */
export function sharedCache(redisUrl: string | undefined): Pick<SvcModuleOptions, 'cacheStore'> {
  return redisUrl ? { cacheStore: redisCacheStore({ url: redisUrl }, { keyPrefix: 'bookstore:' }) } : {};
}
