/** @svc/redis: every public export, by name. */
export { redisCacheStore, RedisCacheStore } from './redis-cache-store';
export type { RedisCacheStoreOptions } from './redis-cache-store';
export { redisRealtime, RedisEventLog } from './redis-event-log';
export type { RedisRealtimeOptions, RedisLoggedEvent, RedisLoggedGap } from './redis-event-log';
export type { RedisConnection, RedisPartOptions } from './redis-connection';
