/** The stages of findMany and findOne of their own: resolve the query, read, build the envelope or the item. */
import { ConfigurationException } from '../errors/configuration-exception';
import { computedSelectFor, readsWithComputed } from '../config/computed-fields';
import type { FindManyQuery } from '../config/entity-config';
import { buildListQueryConfig } from '../query/build-list-query-config';
import { checkKeysetConfig } from '../query/check-keyset-config';
import type { QueryPairs } from '../query/parse-query-string';
import { resolveProgrammaticItemQuery, resolveWireItemQuery } from '../query/resolve-item-query';
import { resolveProgrammaticListQuery, resolveWireListQuery } from '../query/resolve-list-query';
import { projectRow } from '../schema/output-projection';
import { attachIncludes } from './attach-includes';
import { createBuiltInHandlers, type ListResult } from './list-handlers';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import { liveView, loadRow, softDeletes } from '../pipeline/load-row';
import { itemResponse, listResponse } from '../pipeline/stages/output-stage';
import { stage } from '../pipeline/stage';

/** plan: the list query (query-string pairs or a programmatic query) resolved against the list config. */
export const listPlanStage = stage('plan', { phase: 'plan', gives: ['plan'] }, async (call, state) => {
  const config = listConfig(call);
  const query = call.request.query;
  state.plan = Array.isArray(query)
    ? await resolveWireListQuery(query as QueryPairs, config, call.operation.id, call.context)
    : await resolveProgrammaticListQuery((query ?? {}) as FindManyQuery, config, call.operation.id, call.context);
});

/** read: the built-in findMany over the entity's adapter (the page, and the total when counted). */
export const listReadStage = stage(
  'read',
  { phase: 'act', needs: ['plan'], gives: ['result'] },
  async (call, state) => {
    const computed = computedSelectFor(call.entity, call.context);
    const handlers = computed
      ? createBuiltInHandlers(readsWithComputed(call.entity.adapter, computed))
      : handlersOf(call.entity.adapter);
    state.result = await handlers.findMany({ query: state.plan }, call.context);
  },
);

/** The built-in handlers over one entity's adapter, made once per adapter. */
const adapterHandlers = new WeakMap<RepositoryAdapter, ReturnType<typeof createBuiltInHandlers>>();

function handlersOf(adapter: RepositoryAdapter): ReturnType<typeof createBuiltInHandlers> {
  let handlers = adapterHandlers.get(adapter);
  if (!handlers) adapterHandlers.set(adapter, (handlers = createBuiltInHandlers(adapter)));
  return handlers;
}

/** envelope: the list envelope around the page (a replacement handler's result is held to the same shape). */
export const listEnvelopeStage = stage(
  'envelope',
  { phase: 'respond', needs: ['plan', 'result'], gives: ['response'] },
  (call, state) => {
    const result = state.result as Partial<ListResult> | undefined;
    if (!result || !Array.isArray(result.entities) || !('total' in result)) {
      throw new ConfigurationException({
        entity: call.entity.name,
        path: `operations.${call.operation.id}.handler`,
        message: 'must return { entities, total }.',
      });
    }
    const plan = state.plan;
    state.response = listResponse(call, {
      rows: result.entities,
      total: result.total ?? null,
      limit: plan.reportedLimit,
      offset: plan.reportedOffset,
      select: plan.select,
      meta: result.meta,
    });
  },
);

/** includes: each `include=` relation loaded in one batched, scoped read and embedded into the items. */
export const listIncludesStage = stage(
  'includes',
  { phase: 'respond', needs: ['plan', 'response', 'result'] },
  async (call, state) => {
    if (state.plan.include.length === 0) return;
    const items = (state.response.body as { items: Record<string, unknown>[] }).items;
    await attachIncludes(state.plan.include, (state.result as ListResult).entities, items, includeArgs(call));
  },
);

/** shape: a single-row read's `select` and `include`, resolved against the list config. */
export const itemShapeStage = stage('shape', { phase: 'plan', gives: ['shape'] }, async (call, state) => {
  const query = call.request.query;
  state.shape = Array.isArray(query)
    ? await resolveWireItemQuery(query as QueryPairs, listConfig(call), call.operation.id, call.context)
    : await resolveProgrammaticItemQuery(
        (query ?? {}) as FindManyQuery,
        listConfig(call),
        call.operation.id,
        call.context,
      );
});

/**
 * load: the addressed row among the live ones, inside `filter.apply` (404 when missing or out of scope). It is a read's
 * guard, as the guard stage is a write's: it finds the row in scope, which the policy is then asked about.
 */
export const loadStage = stage('load', { phase: 'guard', needs: ['lookup'], gives: ['row'] }, async (call, state) => {
  state.row = await loadRow(call, state.lookup, { view: liveView(call) });
});

/** output: the row in the requested shape, with its includes, and the ETag of the row's state. */
export const itemReadOutputStage = stage(
  'output',
  { phase: 'respond', needs: ['row', 'shape'], gives: ['response'] },
  async (call, state) => {
    const { row, shape } = state;
    // The plain shape is the state itself: no second projection, and the ETag is hashed once.
    if (shape.include.length === 0 && shape.select === call.entity.output.fields) {
      state.response = itemResponse(call, row);
      return;
    }
    const body = projectRow(row, { fields: shape.select });
    await attachIncludes(shape.include, [row], [body], includeArgs(call));
    state.response = itemResponse(call, row, { body });
  },
);

export function includeArgs(call: OperationCall) {
  return {
    adapter: call.entity.adapter,
    entity: call.entity.name,
    context: call.context,
    operation: call.operation.id,
    surface: call.request.surface,
  };
}

/** The bootstrap list config, rebuilt only when per-call settings change the chain. */
export function listConfig(call: OperationCall) {
  const config = call.operation.list!;
  if (call.settings === call.operation.settings) return config;
  const { entity } = call;
  const list = buildListQueryConfig({
    entity: entity.name,
    metadata: entity.metadata,
    related: entity.adapter.metadataOf?.bind(entity.adapter),
    filter: entity.config.filter,
    serverFilter: entity.serverFilter,
    sort: entity.config.sort,
    settings: call.settings,
    select: entity.select,
    outputFields: config.outputFields,
    include: config.include,
    relationScope: config.relationScope,
    strategies: call.entity.strategies,
    search: entity.search,
    softDelete: entity.metadata.deleteMarker !== undefined && softDeletes(call),
  });
  if (call.operation.facts?.answers === 'list') checkKeysetConfig(entity.name, entity.metadata, list);
  return list;
}

/**
 * embed: a write's answer carries the relations a read of the row includes by default (`include.default` and
 * `include.apply`), as the caller's read would embed them, so a client need not read the row again. Its ETag is then
 * the read's own.
 */
export const embedDefaultsStage = stage('embed', { phase: 'respond', needs: ['response'] }, async (call, state) => {
  const response = state.response;
  const config = call.entity.itemOperation?.list ?? call.entity.listOperation?.list;
  // A custom write's row is what its handler returned, served in the entity's shape (no output schema of its own).
  const custom = call.operation.custom;
  const row = custom ? (custom.outputClassFields || custom.outputList ? undefined : state.result) : state.row;
  if (!config || response.status >= 300 || !isRecord(response.body) || !isRecord(row)) return;
  const operation = { operation: call.operation.id, context: call.context };
  const shape = await resolveProgrammaticItemQuery({}, config, operation.operation, operation.context);
  if (shape.include.length === 0) return;
  const body = { ...response.body };
  await attachIncludes(shape.include, [row], [body], includeArgs(call));
  const embedded = itemResponse(call, row, { status: response.status, body });
  state.response = response.resourceId === undefined ? embedded : { ...embedded, resourceId: response.resourceId };
});

/** The `embed` stage where the entity includes relations by default, else nothing. */
export function embedDefaults(entity: {
  readonly include: { readonly default: readonly string[]; readonly apply?: unknown };
}) {
  return entity.include.default.length > 0 || entity.include.apply !== undefined ? [embedDefaultsStage] : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
