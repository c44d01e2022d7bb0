/** What every operation of one entity shares while the entity is resolved, and what each of its list reads shares. */
import type { ResolvedAggregate } from '../config/aggregate-config';
import type { RelatedMetadata } from '../config/resolve-field-path';
import type { ResolvedSettings } from '../config/svc-settings';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { ReadShape } from './resolve-read-shape';
import type { ResolveEntityArgs, ResolvedEntity } from './resolved-entity';

/** What every operation of one entity shares while it is being resolved. */
export interface EntityScope {
  readonly name: string;
  readonly args: ResolveEntityArgs;
  readonly metadata: EntityMetadata;
  readonly soft: boolean;
  readonly related?: RelatedMetadata;
  readonly reads: ReadShape;
  readonly inputs: ResolvedEntity['input'];
  readonly entitySettings: ResolvedSettings;
  /** `aggregate`, resolved: the relations its group paths cross are what a cached aggregate reads through. */
  readonly aggregate?: ResolvedAggregate;
}

/**
 * What every list-query config of the entity shares (standard reads, custom reads, per-call rebuilds): the allowlists,
 * the select config, include, and the scope of relation paths, so no read path can leave one out.
 */
export function listArgs(scope: EntityScope) {
  const { config } = scope.args;
  return {
    include: scope.reads.includer,
    relationScope: scope.reads.relationScope,
    entity: scope.name,
    metadata: scope.metadata,
    related: scope.related,
    filter: config.filter,
    serverFilter: scope.reads.serverFilter,
    sort: config.sort,
    select: scope.reads.select,
    search: scope.reads.search,
    strategies: scope.args.strategies,
  };
}
