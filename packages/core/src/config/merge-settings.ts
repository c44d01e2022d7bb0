/** One link of the precedence chain: a scope overrides only the fields it sets; `false` turns a subtree off. */
import type { ResolvedSettings, SvcSettings } from './svc-settings';

const CACHE_DEFAULTS = { ttl: false as const, etag: true };
const DELETE_DEFAULTS = { field: 'deletedAt', strategy: 'auto' as const };

/** Applies `scope` on top of `base` and returns a new frozen value; `base` is never changed. */
export function mergeSettings(base: ResolvedSettings, scope: SvcSettings | undefined): ResolvedSettings {
  if (!scope) return base;
  const merged: ResolvedSettings = {
    pagination: scope.pagination
      ? {
          ...base.pagination,
          ...definedOnly(scope.pagination),
          since: { ...base.pagination.since, ...definedOnly(scope.pagination.since ?? {}) },
        }
      : base.pagination,
    errors: scope.errors ? { ...base.errors, ...definedOnly(scope.errors) } : base.errors,
    cache: mergeSubtree(base.cache, scope.cache, CACHE_DEFAULTS),
    delete: mergeSubtree(base.delete, scope.delete, DELETE_DEFAULTS),
    realtime: mergeSubtree(base.realtime, scope.realtime, { events: {} }, (prev, next) => ({
      events: { ...prev.events, ...(next.events ?? {}) },
    })),
    identifier: scope.identifier ?? base.identifier,
  };
  return frozenCopy(merged);
}

/** Merges the settings of several scopes in order, lowest first. */
export function mergeSettingsChain(
  base: ResolvedSettings,
  scopes: readonly (SvcSettings | undefined)[],
): ResolvedSettings {
  return scopes.reduce<ResolvedSettings>((settings, scope) => mergeSettings(settings, scope), base);
}

function mergeSubtree<R extends object, S extends object>(
  base: R | false,
  scope: S | false | undefined,
  defaults: R,
  combine?: (prev: R, next: S) => Partial<R>,
): R | false {
  if (scope === undefined) return base;
  if (scope === false) return false;
  const prev = base === false ? defaults : base;
  return { ...prev, ...definedOnly(scope), ...(combine ? combine(prev, scope) : {}) } as R;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] !== undefined) out[key] = value[key];
  }
  return out;
}

/** A frozen copy of plain data (arrays and plain objects); functions and other values are kept as they are. */
function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const copy = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, frozenCopy(child)]));
    return Object.freeze(copy) as T;
  }
  return value;
}
