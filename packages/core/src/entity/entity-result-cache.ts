/** The instance's result cache as one entity uses it: what its reads depend on, and whether any of them caches. */
import { MemoryCacheStore } from '../cache/memory-cache-store';
import { ResultCache } from '../cache/result-cache';
import type { EntityScope } from './entity-scope';
import type { ResolvedOperation } from './resolved-entity';
import { computedValueSources, refuseUnpartitionedCache, ttlOf } from './served-settings';

/** The instance's result cache, told what the entity's reads depend on, and on when any of them caches. */
export function resultCacheOf(scope: EntityScope, operations: ReadonlyMap<string, ResolvedOperation>): ResultCache {
  const { name, args } = scope;
  const resultCache = args.resultCache ?? new ResultCache(new MemoryCacheStore());
  const { metadata, entitySettings: settings, related, reads } = scope;
  // A read's cached entries embed or are selected by the rows of the relations it reads through, and so by the rows
  // a target's view is computed from.
  for (const { readsThrough = [] } of operations.values())
    for (const relation of readsThrough) {
      resultCache.addDependency(name, relation.targetName);
      for (const source of related?.(relation.target).readsFrom ?? []) resultCache.addDependency(name, source);
    }
  // Its own computed values (a view's rows, a virtual column) change with the rows they are computed from.
  const included = [...reads.include.relations.values()].map(({ relation }) => relation);
  const served = reads.select.fieldSet;
  for (const source of computedValueSources({
    entity: name,
    metadata,
    settings,
    operations,
    served,
    included,
    related,
  }))
    resultCache.addDependency(name, source);
  refuseUnpartitionedCache(name, operations, args);
  if ([...operations.values()].some((operation) => ttlOf(operation.settings) !== false)) resultCache.enable();
  return resultCache;
}
