/** The built-in defaults: the first link of the settings chain. */
import type { ResolvedSettings } from './svc-settings';

export const BUILT_IN_SETTINGS: ResolvedSettings = Object.freeze({
  pagination: Object.freeze({
    defaultLimit: 20,
    maxLimit: 100,
    strategy: 'offset',
    count: true,
    since: Object.freeze({ field: 'updatedAt' }),
  }),
  errors: Object.freeze({ exposeInternals: false }),
  // `cache` is off by default, meaning the result cache; ETags stay on (ADR 0011).
  cache: Object.freeze({ ttl: false as const, etag: true }),
  delete: Object.freeze({ field: 'deletedAt', strategy: 'auto' as const }),
  realtime: false,
});
