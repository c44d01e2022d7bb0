/**
 * Resolves one entity's config once, at bootstrap: its settings, soft delete, read shape, write slots, batch and
 * aggregate blocks, its operations (`resolve-entity-operations.ts`) and its result cache, into a frozen entity.
 */
import { adapterWithComputed, resolveComputed } from '../config/computed-fields';
import { adapterWithDeleteMarker } from '../config/delete-marker';
import { resolveAggregateConfig } from '../config/aggregate-config';
import { buildArrayRelations } from '../config/array-relations';
import { resolveNestedRelations } from '../config/nested-writes';
import { resolveEnvelope } from '../config/envelope-config';
import { checkUpsertFields, resolveBatchConfig } from '../config/batch-config';
import { BUILT_IN_SETTINGS } from '../config/built-in-settings';
import { mergeSettingsChain } from '../config/merge-settings';
import { listsRows, readsById } from '../config/operation-facts';
import { toOneReferences } from '../config/to-one-references';
import { BUILT_IN_STRATEGIES } from '../pagination/built-in-strategies';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { buildForcedValues } from '../schema/forced-values';
import { DEFAULT_MAX_INPUT_DEPTH } from '../schema/input-depth';
import { resultCacheOf } from './entity-result-cache';
import type { EntityScope } from './entity-scope';
import { resolveEntityOperations } from './resolve-entity-operations';
import { resolveInputs } from './resolve-inputs';
import { resolveLookup } from './resolve-lookup';
import { resolveParent } from './resolve-parent';
import { resolveReadShape } from './resolve-read-shape';
import { refuseFixedDeleteMarker, resolveSoftDelete } from './resolve-soft-delete';
import type { ResolveEntityArgs, ResolvedEntity } from './resolved-entity';
import { validateEntityConfig } from './validate-entity-config';
import { withAccess } from './resolve-access';

export type { ResolveEntityArgs };

export function resolveEntity(args: ResolveEntityArgs): ResolvedEntity {
  const { target, config, global } = args;
  const name = args.adapter.metadata.name || target.name;
  validateEntityConfig(name, config, args.operationFacts);
  const envelope = resolveEnvelope(name, config.envelope);
  const entitySettings = mergeSettingsChain(BUILT_IN_SETTINGS, [global, config]);
  const computed = resolveComputed(name, args.adapter.metadata, config.computed);
  const adapter = adapterWithComputed(
    adapterWithDeleteMarker({ entity: name, adapter: args.adapter, settings: entitySettings, global, config }),
    computed.columns,
  );
  if (adapter !== args.adapter) args = { ...args, adapter };
  const metadata = adapter.metadata;
  const parent = resolveParent(name, target, metadata, config, args.peers, buildForcedValues(name, config.set));
  // A child collection's link to its parent is part of its `filter.apply`, wherever that is read.
  if (parent.filterApply !== config.filter?.apply)
    args = { ...args, config: { ...config, filter: { ...config.filter, apply: parent.filterApply } } };
  const soft = resolveSoftDelete(name, entitySettings, metadata);
  const related = adapter.metadataOf?.bind(adapter);
  const reads = resolveReadShape({ name, args, metadata, related });
  const arrayRelations = buildArrayRelations(name, metadata, config.relations, adapter);
  const { members, ...inputs } = resolveInputs(name, metadata, args, arrayRelations);
  const scope: EntityScope = { name, args, metadata, soft, related, reads, inputs, entitySettings };
  const batch = resolveBatchConfig(name, metadata, config.batch);
  checkUpsertFields(name, batch, new Set(inputs.patch.fields.keys()));
  const aggregate = resolveAggregateConfig(
    { entity: name, metadata, served: reads.select.fieldSet, related },
    config.aggregate,
  );
  const operations = resolveEntityOperations({ ...scope, aggregate }, arrayRelations);
  if (soft) refuseFixedDeleteMarker(name, entitySettings, metadata, operations);
  const resultCache = resultCacheOf(scope, operations);
  const standard = [...operations.values()];
  const listOperation = standard.find((operation) => operation.facts && listsRows(operation.facts));
  const itemOperation = standard.find((operation) => operation.facts && readsById(operation.facts));
  const entity: ResolvedEntity = Object.freeze({
    ...(listOperation ? { listOperation } : {}),
    ...(itemOperation ? { itemOperation } : {}),
    name,
    target,
    config: args.config,
    metadata,
    adapter,
    computed: computed.fields,
    lookup: resolveLookup(name, entitySettings, metadata),
    operations,
    filterApply: parent.filterApply,
    serverFilter: reads.serverFilter,
    input: inputs,
    output: { fields: reads.outputItem ?? reads.select.fields },
    select: reads.select,
    forced: parent.forced,
    ...(batch ? { batch } : {}),
    ...(aggregate ? { aggregate } : {}),
    references: toOneReferences(metadata),
    maxInputDepth: args.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH,
    arrayRelations,
    nested: resolveNestedRelations(name, metadata, config.relations, adapter),
    writableMembers: members,
    search: reads.search,
    include: reads.include,
    softDeleteOnReads: soft,
    peer: reads.peer,
    strategies: args.strategies ?? BUILT_IN_STRATEGIES,
    resultCache,
    cacheScope: args.roleScope ?? resultCache.scopeOf(name, args.cacheScope),
    publisher: args.publisher ?? new RealtimePublisher(),
    ...(envelope ? { envelope } : {}),
  });
  return withAccess(entity, args, resolveEntity);
}
