/** Resolves one entity's config once, at bootstrap: settings per operation, soft delete, operations, query, schemas. */
import { toOneReferences } from '../config/to-one-references';
import { adapterWithDeleteMarker } from '../config/delete-marker';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import { DEFAULT_MAX_INPUT_DEPTH } from '../schema/input-depth';
import { ConfigurationException } from '../errors/configuration-exception';

import { relationOfPath, type RelatedMetadata } from '../config/resolve-field-path';
import type { SelectConfig } from '../query/select-config';
import type { SearchConfig } from '../query/search-config';
import type { IncludeConfig } from '../config/include-config';
import type { FilterAllowlist } from '../query/filter-allowlist';
import type { ListQueryConfig } from '../query/list-query-config';
import type { OperationState } from '../config/resolve-operations';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';

import { buildFilterAllowlist, buildListQueryConfig } from '../query/build-list-query-config';
import { suggestion } from '../config/did-you-mean';
import { resolveLookup } from './resolve-lookup';

import { mergeSettingsChain } from '../config/merge-settings';
import { resolveOperations } from '../config/resolve-operations';
import { checkUpsertFields, resolveBatchConfig } from '../config/batch-config';
import { resolveAggregateConfig, type ResolvedAggregate } from '../config/aggregate-config';
import type { ResolveEntityArgs, ResolvedEntity, ResolvedOperation } from './resolved-entity';

export type { ResolveEntityArgs };
import type { ResolvedSettings, SvcSettings } from '../config/svc-settings';
import { listsRows, readsById, standardOf, type OperationFacts } from '../config/operation-facts';
import { validateEntityConfig } from './validate-entity-config';
import { checkKeysetConfig } from '../query/check-keyset-config';
import { refuseUnknownOverrides, resolveCustomOperation } from './resolve-custom-operation';
import {
  ARRAY_ACTIONS,
  buildArrayRelations,
  splitMemberFields,
  type ArrayRelation,
  type RelationAction,
} from '../config/array-relations';
import { settingsRulesOf } from './validate-custom-operation';
import { BUILT_IN_STRATEGIES } from '../pagination/built-in-strategies';

import { computedValueSources, refuseUnpartitionedCache, refuseUnservedSettings, ttlOf } from './served-settings';
import { buildIncludeConfig } from '../config/include-config';
import { visibleRows } from '../query/visible-rows';
import { buildOutputSlot, outputValidatorOf } from '../schema/output-slots';
import { buildForcedValues } from '../schema/forced-values';
import { resolveInputSlot } from '../schema/resolve-input-slot';
import { buildQueryValidator } from '../query/query-validator';

import { ResultCache } from '../cache/result-cache';
import { MemoryCacheStore } from '../cache/memory-cache-store';
import { resolveInclude, type IncludeRequest } from './resolve-include';
import type { QueryErrors } from '../errors/query-errors';
import type { ApplyArgs, CustomOperationConfig, PolicyFunction } from '../config/entity-config';
import { buildSelectConfig } from '../query/select-config';
import { buildSearchConfig } from '../query/search-config';
import { BUILT_IN_SETTINGS } from '../config/built-in-settings';

/** What every operation of one entity shares while it is being resolved. */
interface EntityScope {
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

/** The read-side configuration every read operation of the entity shares. */
interface ReadShape {
  readonly select: SelectConfig;
  readonly search?: SearchConfig;
  readonly include: IncludeConfig;
  readonly serverFilter: FilterAllowlist;
  readonly outputItem?: readonly string[];
  readonly outputList?: readonly string[];
  readonly includer?: ListQueryConfig['include'];
  readonly relationScope: NonNullable<ListQueryConfig['relationScope']>;
  /** Another entity served by the same instance. */
  readonly peer: (target: Function) => ResolvedEntity | undefined;
}

export function resolveEntity(args: ResolveEntityArgs): ResolvedEntity {
  const { target, config, global } = args;
  const name = args.adapter.metadata.name || target.name;
  validateEntityConfig(name, config, args.operationFacts);
  const entitySettings = mergeSettingsChain(BUILT_IN_SETTINGS, [global, config]);
  const adapter = adapterWithDeleteMarker({
    entity: name,
    adapter: args.adapter,
    settings: entitySettings,
    global,
    config,
  });
  if (adapter !== args.adapter) args = { ...args, adapter };
  const metadata = adapter.metadata;
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
  const operations = resolveAllOperations({ ...scope, aggregate }, arrayRelations);
  if (soft) refuseFixedDeleteMarker(name, entitySettings, metadata, operations);
  const resultCache = resultCacheOf(scope, operations);
  const standard = [...operations.values()];
  const listOperation = standard.find((operation) => operation.facts && listsRows(operation.facts));
  const itemOperation = standard.find((operation) => operation.facts && readsById(operation.facts));
  return Object.freeze({
    ...(listOperation ? { listOperation } : {}),
    ...(itemOperation ? { itemOperation } : {}),
    name,
    target,
    config,
    metadata,
    adapter,
    lookup: resolveLookup(name, entitySettings, metadata),
    operations,
    filterApply: config.filter?.apply,
    serverFilter: reads.serverFilter,
    input: inputs,
    output: { fields: reads.outputItem ?? reads.select.fields },
    select: reads.select,
    forced: buildForcedValues(name, config.set),
    ...(batch ? { batch } : {}),
    ...(aggregate ? { aggregate } : {}),
    references: toOneReferences(metadata),
    maxInputDepth: args.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH,
    arrayRelations,
    writableMembers: members,
    search: reads.search,
    include: reads.include,
    softDeleteOnReads: soft,
    peer: reads.peer,
    strategies: args.strategies ?? BUILT_IN_STRATEGIES,
    resultCache,
    cacheScope: resultCache.scopeOf(name, args.cacheScope),
    publisher: args.publisher ?? new RealtimePublisher(),
  });
}

/** The standard operations that are on, then the custom ones, then each array relation's member operations. */
function resolveAllOperations(
  scope: EntityScope,
  arrayRelations: ReadonlyMap<string, ArrayRelation>,
): Map<string, ResolvedOperation> {
  const { name, args, soft } = scope;
  const { states, customs } = resolveOperations({
    entity: name,
    map: args.config.operations,
    globalMap: args.global.operations,
    soft,
    facts: args.operationFacts,
    config: args.config,
  });
  const operations = new Map<string, ResolvedOperation>();
  for (const [id, state] of states) {
    const facts = args.operationFacts.get(id);
    if (facts) operations.set(id, resolveOperation(scope, facts, state));
  }
  if (scope.metadata.view)
    refuseWritesToView(name, scope.metadata.primaryKeys.length > 0, operations, args.operationFacts);
  for (const [id, custom] of customs) operations.set(id, resolveCustom(scope, id, custom));
  for (const [relation, array] of arrayRelations) {
    for (const action of ARRAY_ACTIONS[array.strategy])
      operations.set(`${relation}:${action}`, resolveMemberOperation(scope, operations, relation, action));
  }
  refuseUnknownOverrides(name, operations, args.handlers);
  refuseBypassedJsonPatch(name, operations, arrayRelations);
  if (![...operations.values()].some((operation) => operation.facts?.kind === 'read')) {
    // No read is served, but a misspelt allowlist is still a configuration error, found now.
    buildListQueryConfig({ ...listArgs(scope), settings: scope.entitySettings, softDelete: soft });
  }
  return operations;
}

/**
 * A view's rows cannot be written: an entity over one serves reads only, and says so in its `operations` map, so a
 * write is never routed to answer with a database error.
 */
function refuseWritesToView(
  entity: string,
  keyed: boolean,
  operations: ReadonlyMap<string, ResolvedOperation>,
  standard: ReadonlyMap<string, OperationFacts>,
): void {
  // Without a key (a view need not have one), no row can be addressed by its id either.
  const servable = (facts: OperationFacts) => facts.kind === 'read' && (keyed || !facts.takes.id);
  const served = (can: boolean) =>
    [...operations.values()].filter(({ facts }) => facts !== undefined && servable(facts) === can);
  const unserved = served(false);
  if (unserved.length === 0) return;
  const reads = served(true);
  const fallback = [listsRows, ...(keyed ? [readsById] : [])].map((shape) => standardOf(standard.values(), shape));
  const map = (reads.length > 0 ? reads : fallback).map(({ id }) => `${id}: true`);
  const why = keyed ? 'whose rows cannot be written' : 'whose rows cannot be written, and which has no primary key';
  throw new ConfigurationException({
    entity,
    path: 'operations',
    message: `${entity} reads a database view, ${why}, yet ${unserved.map(({ id }) => id).join(', ')} would be served. Serve what it can: operations: { ${map.join(', ')} }.`,
  });
}

/** A custom operation, under its own settings scope and the rules of the standard operation of its shape. */
function resolveCustom(
  scope: EntityScope,
  id: string,
  custom: { readonly state: OperationState; readonly config: CustomOperationConfig },
): ResolvedOperation {
  const { name, metadata, args } = scope;
  const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [args.global, args.config, pickSettings(custom.config)]);
  const softDelete = scope.soft && resolveSoftDelete(name, settings, metadata);
  const settingsAs = settingsRulesOf(custom.config, args.operationFacts);
  refuseUnservedSettings(name, settingsAs, settings, {
    strategies: args.strategies,
    realtime: args.publisher?.hasTransports,
  });
  const list =
    custom.config.kind === 'read' ? buildListQueryConfig({ ...listArgs(scope), settings, softDelete }) : undefined;
  if (list && settingsAs.cardinality === 'many') checkKeysetConfig(name, metadata, list);
  return resolveCustomOperation({ scope: { name, metadata, args }, id, ...custom, settings, softDelete, list });
}

/** A relation's member operation: a member list follows the rules of the read by id, a member write the replace's. */
function resolveMemberOperation(
  scope: EntityScope,
  operations: ReadonlyMap<string, ResolvedOperation>,
  relation: string,
  action: RelationAction,
): ResolvedOperation {
  const { args } = scope;
  const settingsAs = standardOf(
    args.operationFacts.values(),
    action === 'list' ? readsById : (standard) => standard.takes.body === 'update',
  );
  const settings = operations.get(settingsAs.id)?.settings ?? scope.entitySettings;
  return {
    id: `${relation}:${action}`,
    settingsAs,
    ...(action === 'list' ? {} : { event: 'updated' as const }),
    reads: action === 'list',
    state: 'on',
    settings,
    scopes: [args.global, args.config],
    softDelete: scope.soft && resolveSoftDelete(scope.name, settings, scope.metadata),
    policy: args.config.policy ?? args.globalPolicy,
    relationWrite: { relation, action },
  };
}

/** A JSON Patch relation on an entity whose patch is replaced by a handler would be bypassed: refused at boot. */
function refuseBypassedJsonPatch(
  name: string,
  operations: ReadonlyMap<string, ResolvedOperation>,
  arrayRelations: ReadonlyMap<string, ArrayRelation>,
): void {
  const patchHandled = [...operations.values()].some((op) => op.facts?.takes.body === 'patch' && op.handler);
  const jsonPatched = [...arrayRelations.values()].find((array) => array.strategy === 'jsonPatch');
  if (!patchHandled || !jsonPatched) return;
  throw new ConfigurationException({
    entity: name,
    path: `relations.${jsonPatched.relation.property}.write.strategy`,
    message:
      "is 'jsonPatch', but patchOne has a replacement handler that a JSON Patch would bypass. Use 'resource' or 'replace', or drop the handler.",
  });
}

/** The instance's result cache, told what the entity's reads depend on, and on when any of them caches. */
function resultCacheOf(scope: EntityScope, operations: ReadonlyMap<string, ResolvedOperation>): ResultCache {
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

function resolveReadShape(args: {
  name: string;
  args: ResolveEntityArgs;
  metadata: EntityMetadata;
  related?: RelatedMetadata;
}): ReadShape {
  const { name, metadata, related } = args;
  const { config, adapter } = args.args;
  const serverFilter = buildFilterAllowlist({ entity: name, metadata, filter: { limits: config.filter?.limits } });
  const maxLength = serverFilter.limits.maxLikePatternLength;
  const include = buildIncludeConfig({ entity: name, metadata, include: config.include, relations: config.relations });
  if (include.relations.size > 0 && !adapter.loadRelation) {
    throw new ConfigurationException({
      entity: name,
      path: 'include',
      message: 'needs a repository adapter that can load relations (loadRelation).',
    });
  }
  const select = buildSelectConfig(name, metadata, config.select);
  const peer = (other: Function) => args.args.peers?.(other);
  return {
    peer,
    select,
    search: buildSearchConfig({ related, entity: name, metadata, input: config.search, maxLength, select }),
    include,
    serverFilter,
    outputItem: buildOutputSlot(name, metadata, 'item', config.schema?.output?.item),
    outputList: buildOutputSlot(name, metadata, 'list', config.schema?.output?.list),
    includer:
      include.relations.size > 0
        ? (request: IncludeRequest, errors: QueryErrors, applyArgs: ApplyArgs) =>
            resolveInclude({ name, include, select, peer }, request, errors, applyArgs)
        : undefined,
    relationScope: async (relationName: string, applyArgs: ApplyArgs) => {
      const relation = metadata.relations.find((candidate) => candidate.property === relationName);
      const served = relation ? peer(relation.target) : undefined;
      return served ? visibleRows(served, applyArgs) : undefined;
    },
  };
}

/** The entity's root write slots; patch falls back to update's configuration. */
function resolveInputs(
  entity: string,
  metadata: EntityMetadata,
  args: ResolveEntityArgs,
  arrays: ReadonlyMap<string, ArrayRelation>,
): ResolvedEntity['input'] & { members: ReadonlySet<string> } {
  const input = args.config.schema?.input;
  const slot = (name: 'create' | 'update' | 'patch', value: unknown, path: string) =>
    resolveInputSlot({ entity, metadata, slot: name, value, path, classSchemas: args.classSchemas });
  const update = splitMemberFields(input?.update, arrays);
  const patch = input?.patch === undefined ? update : splitMemberFields(input.patch, arrays);
  return {
    create: slot('create', input?.create, 'schema.input.create'),
    update: slot('update', update.slot, 'schema.input.update'),
    patch: slot('patch', patch.slot, input?.patch ? 'schema.input.patch' : 'schema.input.update'),
    members: update.writable,
  };
}

/** The write slot of a body write: its own `schema.input` part, else the entity's root slot. */
function operationInput(scope: EntityScope, facts: OperationFacts, part: unknown) {
  const slot = facts.takes.body;
  if (slot === 'none') return undefined;
  if (part === undefined) return scope.inputs[slot];
  const path = `operations.${facts.id}.schema.input`;
  const { name: entity, metadata } = scope;
  return resolveInputSlot({
    entity,
    metadata,
    slot,
    value: part,
    path,
    classSchemas: scope.args.classSchemas,
    validatorsOnly: true,
  });
}

/** The output validator of an operation: its own part, else the entity's list or item slot, as the operation answers. */
function operationOutputValidator(
  facts: OperationFacts,
  part: unknown,
  root: { item?: unknown; list?: unknown } | undefined,
) {
  if (facts.answers === 'none' || facts.answers === 'aggregate') return undefined;
  if (part !== undefined) return outputValidatorOf(part, `operations.${facts.id}.schema.output`);
  const slot = facts.answers === 'batch' ? 'item' : facts.answers;
  return outputValidatorOf(root?.[slot], `schema.output.${slot}`);
}

/** One operation: its settings chain, soft delete, policy, handler and (for reads) its query config. */
function resolveOperation(scope: EntityScope, facts: OperationFacts, state: OperationState): ResolvedOperation {
  const { name, metadata, args } = scope;
  const id = facts.id;
  const reads = facts.takes.query !== 'none';
  const many = facts.answers === 'list';
  const { config, global } = args;
  const opConfig = config.operations?.[id];
  const opObject = typeof opConfig === 'object' ? opConfig : undefined;
  const counterpart = counterpartOf(scope, facts);
  const ownPolicy = opObject?.policy ?? counterpart?.policy;
  const scopes = [global, config, opObject ? pickSettings(opObject) : undefined];
  const settings = mergeSettingsChain(BUILT_IN_SETTINGS, scopes);
  const softDelete = scope.soft && resolveSoftDelete(name, settings, metadata);
  refuseUnservedSettings(name, facts, settings, {
    strategies: args.strategies,
    realtime: args.publisher?.hasTransports,
  });
  const opOutput = buildOutputSlot(name, metadata, 'item', opObject?.schema?.output, `operations.${id}.schema.output`);
  const shape = scope.reads;
  const list = reads
    ? buildListQueryConfig({
        ...listArgs(scope),
        settings,
        softDelete,
        outputFields: opOutput ?? (many ? shape.outputList : shape.outputItem),
      })
    : undefined;
  if (list && many) checkKeysetConfig(name, metadata, list);
  return Object.freeze({
    ...(list
      ? { readsThrough: relationsReadThrough(metadata, shape.include, list, aggregateRelations(scope, facts)) }
      : {}),
    id,
    facts,
    settingsAs: facts,
    ...(facts.event ? { event: facts.event } : {}),
    reads: facts.kind === 'read',
    route: opObject?.meta?.routes,
    state,
    settings,
    scopes,
    softDelete,
    policy: ownPolicy === false ? undefined : (ownPolicy ?? config.policy ?? args.globalPolicy),
    handler: args.handlers?.[id] ?? opObject?.handler,
    input: operationInput(scope, facts, opObject?.schema?.input ?? counterpart?.schema?.input),
    queryValidator: reads
      ? buildQueryValidator({
          entity: name,
          path: opObject?.schema?.query ? `operations.${id}.schema.query` : 'schema.input.query',
          value: opObject?.schema?.query ?? (config.schema?.input as { query?: unknown } | undefined)?.query,
          classSchemas: args.classSchemas,
        })
      : undefined,
    outputFields: opOutput,
    outputValidator: operationOutputValidator(facts, opObject?.schema?.output, config.schema?.output),
    list,
  });
}

/**
 * A batch write's one-row operation's own config (its policy and `schema.input` carry over). A replacement handler
 * there, or on the batch itself, stops the boot: a batch would write past it.
 */
function counterpartOf(scope: EntityScope, facts: OperationFacts): StandardOperationConfigObject | undefined {
  const other = facts.counterpart;
  if (!other) return undefined;
  const { config, handlers } = scope.args;
  const own = config.operations?.[facts.id];
  const entry = config.operations?.[other];
  const object = typeof entry === 'object' ? (entry as StandardOperationConfigObject) : undefined;
  const replaced = [
    [facts.id, handlers?.[facts.id] ?? (typeof own === 'object' ? own.handler : undefined)],
    [other, handlers?.[other] ?? object?.handler],
  ] as const;
  for (const [id, handler] of replaced) {
    if (!handler) continue;
    throw new ConfigurationException({
      entity: scope.name,
      path: facts.optIn?.path ?? `operations.${facts.id}`,
      message: `turns ${facts.id} on, but ${id} has a replacement handler, which ${facts.id} would bypass (a batch cannot be replaced). Turn ${facts.optIn?.path ?? facts.id} off, or write a custom operation.`,
    });
  }
  return object;
}

type StandardOperationConfigObject = {
  readonly policy?: PolicyFunction | false;
  readonly handler?: unknown;
  readonly schema?: { readonly input?: unknown };
};

/** The relations an aggregate's group paths cross, for the operation that takes an aggregate query. */
function aggregateRelations(scope: EntityScope, facts: OperationFacts): readonly RelationMetadata[] {
  return facts.takes.query === 'aggregate' ? (scope.aggregate?.relations ?? []) : [];
}

/** The included relations, then those a relation path of the read's filter, sort or search fields goes through. */
function relationsReadThrough(
  metadata: EntityMetadata,
  include: IncludeConfig,
  list: ListQueryConfig,
  grouped: readonly RelationMetadata[],
): RelationMetadata[] {
  const relations = new Set([...include.relations.values()].map(({ relation }) => relation));
  for (const relation of grouped) relations.add(relation);
  for (const path of [...list.filter.fields.keys(), ...list.sort.fields, ...(list.search?.fields ?? [])]) {
    const head = relationOfPath(path, list.columns);
    const relation = head === undefined ? undefined : metadata.relations.find((r) => r.property === head);
    if (relation) relations.add(relation);
  }
  return [...relations];
}

/**
 * What every list-query config of the entity shares (standard reads, custom reads, per-call rebuilds): the allowlists,
 * the select config, include, and the scope of relation paths, so no read path can leave one out.
 */
function listArgs(scope: EntityScope) {
  const { config } = scope.args;
  return {
    include: scope.reads.includer,
    relationScope: scope.reads.relationScope,
    entity: scope.name,
    metadata: scope.metadata,
    related: scope.related,
    filter: config.filter,
    sort: config.sort,
    select: scope.reads.select,
    search: scope.reads.search,
    strategies: scope.args.strategies,
  };
}

function resolveSoftDelete(entity: string, settings: ResolvedSettings, metadata: EntityMetadata): boolean {
  if (settings.delete === false) return false;
  const { field, strategy } = settings.delete;
  const hasMarker = metadata.deleteMarker === field;
  if (strategy === 'soft' && !hasMarker) {
    const columns = metadata.columns.map((column) => column.property);
    throw new ConfigurationException({
      entity,
      path: 'delete.strategy',
      message: `is 'soft' but ${entity} has no soft-delete marker column '${field}'.${suggestion(field, columns)} Add a delete-date column named '${field}', set delete.field, or use 'auto'.`,
    });
  }
  return strategy !== 'hard' && hasMarker;
}

/**
 * The ORM's own delete-date column declared `update: false` (a configured `delete.field` is checked where it is
 * taken): no soft delete or restore could set it on a stored row, so an entity that serves one is refused.
 */
function refuseFixedDeleteMarker(
  entity: string,
  settings: ResolvedSettings,
  metadata: EntityMetadata,
  operations: ReadonlyMap<string, ResolvedOperation>,
): void {
  const field = settings.delete === false ? undefined : settings.delete.field;
  const marker = metadata.columns.find((column) => column.property === field);
  if (marker?.updatable !== false) return;
  // A soft delete is named before a restore.
  const served = [...operations.values()];
  const writer = (['sets', 'clears'] as const)
    .map((effect) => served.find((operation) => operation.facts?.deleteMarker === effect))
    .find((operation) => operation !== undefined)?.id;
  if (!writer) return;
  throw new ConfigurationException({
    entity,
    path: `delete (in force for ${writer})`,
    message: `soft-deletes through the delete-date column '${field}', which is declared update: false, so no soft delete or restore could set it on a stored row. Drop update: false from the column, or set delete.strategy to 'hard'.`,
  });
}

const SETTINGS_KEYS = ['pagination', 'errors', 'cache', 'delete', 'realtime', 'identifier'] as const;

function pickSettings(opConfig: object): SvcSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS_KEYS) if (key in opConfig) out[key] = (opConfig as Record<string, unknown>)[key];
  return out as SvcSettings;
}
