/** Settings that must not silently do nothing: unserved features and result caching that would mix callers. */
import { ConfigurationException } from '../errors/configuration-exception';
import { BUILT_IN_STRATEGIES } from '../pagination/built-in-strategies';
import type { PaginationStrategy } from '../pagination/pagination-strategy';
import type { ResolveEntityArgs } from './resolved-entity';
import type { ResolvedOperation } from './resolved-entity';
import type { ResolvedSettings } from '../config/svc-settings';
import type { OperationFacts } from '../config/operation-facts';
import type { RelatedMetadata } from '../config/resolve-field-path';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';

/** The result-cache ttl in force, or false. */
export function ttlOf(settings: ResolvedSettings): number | false {
  return settings.cache === false ? false : settings.cache.ttl;
}

/** What the instance can serve: its pagination strategies, and whether any realtime transport carries events. */
export interface ServedCapabilities {
  readonly strategies?: ReadonlyMap<string, PaginationStrategy>;
  readonly realtime?: boolean;
}

/**
 * Settings that could not take effect are refused when the entity is resolved (ADR 0005): a pagination strategy the
 * instance does not have, and realtime events with no transport to carry them.
 */
export function refuseUnservedSettings(
  entity: string,
  operation: OperationFacts,
  settings: ResolvedSettings,
  served: ServedCapabilities = {},
): void {
  const id = operation.id;
  const strategies = served.strategies ?? BUILT_IN_STRATEGIES;
  const fail = (path: string, message: string) => {
    throw new ConfigurationException({ entity, path: `${path} (in force for ${id})`, message });
  };
  if (operation.settings.includes('pagination') && !strategies.has(settings.pagination.strategy)) {
    fail(
      'pagination.strategy',
      `'${settings.pagination.strategy}' is not a pagination strategy here; use ${[...strategies.keys()].join(', ')}, or register it on paginationStrategies.`,
    );
  }
  if (settings.realtime !== false && served.realtime !== true && operation.kind === 'write') {
    fail(
      'realtime',
      'realtime is on, but no transport carries its events. Register one (realtimeTransports: [sse()] from @svc/sse), or set realtime: false.',
    );
  }
}

/**
 * Cached reads are shared by every caller unless `cacheKey(context)` partitions them; where reads are scoped per caller
 * (filter.apply, a policy, select/sort/include apply), sharing them would leak rows, so that is refused at boot.
 */
export function refuseUnpartitionedCache(
  entity: string,
  operations: ReadonlyMap<string, ResolvedOperation>,
  args: ResolveEntityArgs,
): void {
  if (args.cacheKeyed) return;
  const { config } = args;
  const perCaller = config.filter?.apply ?? config.select?.apply ?? config.sort?.apply ?? config.include?.apply;
  for (const operation of cachedReads(operations)) {
    const id = operation.id;
    if (perCaller || operation.policy) {
      throw new ConfigurationException({
        entity,
        path: `cache.ttl (in force for ${id})`,
        message:
          'caches reads that are scoped per caller (filter.apply, a policy, or an apply function), and no cacheKey(context) partitions them, so callers would share entries. Set cacheKey in SvcModule.forRoot / createSvc, or turn ttl off here.',
      });
    }
  }
}

/** The standard reads with a result-cache ttl in force. */
function* cachedReads(operations: ReadonlyMap<string, ResolvedOperation>): Generator<ResolvedOperation> {
  for (const operation of operations.values())
    if (operation.facts?.kind === 'read' && ttlOf(operation.settings) !== false) yield operation;
}

/**
 * The entities whose writes change what a read of `entity` answers beyond its own table: its view's `dependsOn` and
 * its `cache.dependsOn` (a view named there with its own sources); the caller adds the view sources of the targets
 * its reads go through, as it adds the targets. Where a cached read serves computed values (the entity's own view or served virtual columns, or those of
 * a target it includes) whose sources no view `dependsOn` and no `cache.dependsOn` names, it would answer them stale
 * until its ttl ran out, so it is refused at bootstrap, naming the fix.
 */
export function computedValueSources(args: {
  entity: string;
  metadata: EntityMetadata;
  settings: ResolvedSettings;
  operations: ReadonlyMap<string, ResolvedOperation>;
  /** The fields the entity's reads serve. */
  served: ReadonlySet<string>;
  /** The relations a read may include, whose target rows its answer then holds. */
  included: readonly RelationMetadata[];
  related?: RelatedMetadata;
}): readonly string[] {
  const { entity, metadata, settings, operations, related } = args;
  const declared = settings.cache === false ? undefined : settings.cache.dependsOn;
  const sources = new Set(metadata.readsFrom ?? []);
  for (const target of declared ?? []) {
    const named = metadataOf(entity, target, related);
    sources.add(named.name);
    for (const source of named.readsFrom ?? []) sources.add(source);
  }
  sources.delete(entity);
  const perCaller = metadata.columns.filter((column) => column.computed && args.served.has(column.property));
  for (const operation of perCaller.length > 0 ? cachedReads(operations) : []) {
    throw new ConfigurationException({
      entity,
      path: `cache.ttl (in force for ${operation.id})`,
      message: `caches reads that serve the computed field${perCaller.length > 1 ? 's' : ''} ${perCaller.map((column) => `'${column.property}'`).join(', ')}, whose SQL may depend on the caller, so one caller's values would be answered to another. Turn ttl off here.`,
    });
  }
  if (declared !== undefined) return [...sources];
  const unnamed = unnamedComputedValues(metadata, args.served, entity);
  const included = args.included
    .map((relation) => related?.(relation.target))
    .map((target) => target && unnamedComputedValues(target, undefined, target.name))
    .find((found) => found !== undefined);
  const computed = unnamed ?? included;
  if (computed === undefined) return [...sources];
  for (const operation of cachedReads(operations)) {
    throw new ConfigurationException({
      entity,
      path: `cache.ttl (in force for ${operation.id})`,
      message: `caches reads of values computed from other tables (${computed}), whose writes Svc cannot tell would change them. Name the entities they read in cache.dependsOn (entity classes; [] when they read no other table)${unnamed !== undefined && metadata.view ? " or in the view's dependsOn" : ''}, or turn ttl off here.`,
    });
  }
  return [...sources];
}

/**
 * What of `metadata`'s rows is computed from tables no `dependsOn` names: a view without one, or its virtual columns
 * (those `served` holds, when given). Undefined when nothing is.
 */
function unnamedComputedValues(
  metadata: EntityMetadata,
  served: ReadonlySet<string> | undefined,
  owner: string,
): string | undefined {
  if (metadata.view) return metadata.readsFrom === undefined ? `${owner} reads a database view` : undefined;
  const names = metadata.columns
    .filter((column) => column.virtual && (served === undefined || served.has(column.property)))
    .map((column) => `'${column.property}'`);
  if (names.length === 0) return undefined;
  return `the virtual column${names.length > 1 ? 's' : ''} ${names.join(', ')} of ${owner}`;
}

function metadataOf(entity: string, target: Function, related: RelatedMetadata | undefined): EntityMetadata {
  try {
    if (related) return related(target);
  } catch {
    // Reported below: the class is not an entity of this data source.
  }
  throw new ConfigurationException({
    entity,
    path: 'cache.dependsOn',
    message: `names ${target.name || 'a class'}, which is not an entity of this data source.`,
  });
}
