/** findMany and findOne: resolve the query, check policy, read, project. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { FindManyQuery } from '../config/entity-config';
import { buildListQueryConfig } from '../query/build-list-query-config';
import { checkKeysetConfig } from '../query/check-keyset-config';
import type { QueryPairs } from '../query/parse-query-string';
import {
  resolveProgrammaticItemQuery,
  resolveProgrammaticListQuery,
  resolveWireItemQuery,
  resolveWireListQuery,
} from '../query/resolve-list-query';
import { projectRow } from '../schema/output-projection';
import { attachIncludes } from './attach-includes';
import { builtInHandlers, type ListResult } from './list-handlers';
import type { ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import { readLookupKey } from '../pipeline/stages/key-stage';
import { liveView, loadRow, softDeletes } from '../pipeline/stages/load-row-stage';
import { itemResponse, listResponse, notModified } from '../pipeline/stages/output-stage';
import { ttlOf } from '../entity/served-settings';
import { checkQuery } from '../query/query-validator';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { runHandler } from './run-handler';
import type { Row } from '../persistence/repository-adapter';
import {
  policyRowOf,
  readResultCacheEntry,
  toResultCacheEntry,
  type ResultCacheEntry,
} from '../cache/result-cache-entry';

export async function findMany(call: OperationCall): Promise<ExecuteResponse> {
  await checkPolicy(call, {});
  await checkQuery(call.operation.queryValidator, call.request.query);
  return throughResultCache(
    call,
    async () => ({ response: await readMany(call) }),
    async (cached) => cached.response,
  );
}

async function readMany(call: OperationCall): Promise<ExecuteResponse> {
  const config = listConfig(call);
  const query = call.request.query;
  const plan = Array.isArray(query)
    ? await resolveWireListQuery(query as QueryPairs, config, call.operation.id, call.context)
    : await resolveProgrammaticListQuery((query ?? {}) as FindManyQuery, config, call.operation.id, call.context);
  // A replacement handler, or the built-in one over this entity's adapter: one path builds the envelope for both.
  const result = (
    call.operation.handler
      ? await runHandler(call, { query: plan })
      : await builtInHandlers.findMany({ query: plan }, { ...call.context, repository: call.entity.adapter })
  ) as Partial<ListResult> | undefined;
  if (!result || !Array.isArray(result.entities) || !('total' in result)) {
    throw new ConfigurationException({
      entity: call.entity.name,
      path: 'operations.findMany.handler',
      message: 'must return { entities, total }.',
    });
  }
  const response = listResponse(call, {
    rows: result.entities,
    total: result.total ?? null,
    limit: plan.reportedLimit,
    offset: plan.reportedOffset,
    select: plan.select,
    meta: result.meta,
  });
  const items = (response.body as { items: Record<string, unknown>[] }).items;
  await attachIncludes(plan.include, result.entities, items, includeArgs(call));
  return response;
}

export async function findOne(call: OperationCall): Promise<ExecuteResponse> {
  const key = readLookupKey(call);
  await checkQuery(call.operation.queryValidator, call.request.query);
  if (call.operation.handler)
    return itemResponse(call, (await runHandler(call, { key })) as Record<string, unknown>, { conditional: true });
  const query = call.request.query;
  const shape = Array.isArray(query)
    ? await resolveWireItemQuery(query as QueryPairs, listConfig(call), call.operation.id, call.context)
    : await resolveProgrammaticItemQuery(
        (query ?? {}) as FindManyQuery,
        listConfig(call),
        call.operation.id,
        call.context,
      );
  return throughResultCache(
    call,
    async () => {
      const row = await loadRow(call, key, { view: liveView(call) });
      await checkPolicy(call, { entity: row });
      // The plain shape is the state itself: no second projection, and the ETag is hashed once.
      if (shape.include.length === 0 && shape.select === call.entity.output.fields) {
        return { row, response: itemResponse(call, row) };
      }
      const body = projectRow(row, { fields: shape.select });
      await attachIncludes(shape.include, [row], [body], includeArgs(call));
      return { row, response: itemResponse(call, row, { body }) };
    },
    async (cached) => {
      // Without its row a hit cannot run the policy again: it reads as a miss.
      const row = policyRowOf(cached);
      if (row === undefined) return undefined;
      await checkPolicy(call, { entity: row });
      return cached.response;
    },
  ).then((response) => notModified(call, response));
}

/**
 * Included children are scoped by their own entity's `filter.apply`; without a `cacheKey` partition those reads would
 * be shared between callers, so they are not cached (the boot check cannot see peers resolved after this entity).
 */
function embedsScopedRows(call: OperationCall): boolean {
  if (call.entity.resultCache.partitioned) return false;
  for (const { relation } of call.entity.include.relations.values()) {
    if (call.entity.peer(relation.target)?.filterApply) return true;
  }
  return false;
}

/**
 * Serves a read from the result cache when `cache.ttl` is in force: a hit skips the database (the policy still runs on
 * the cached row); a miss reads and stores the full 200 response, and the row for findOne, as plain JSON
 * (`toResultCacheEntry`), and serves what it stored. `hit` answers undefined for an entry it cannot serve.
 */
async function throughResultCache(
  call: OperationCall,
  read: () => Promise<{ response: ExecuteResponse; row?: Row }>,
  hit: (cached: ResultCacheEntry) => Promise<ExecuteResponse | undefined>,
): Promise<ExecuteResponse> {
  const ttl = ttlOf(call.settings);
  if (ttl === false || embedsScopedRows(call)) return (await read()).response;
  const { resultCache, name } = call.entity;
  const key = resultCache.key(name, {
    operation: call.operation.id,
    id: call.request.id,
    query: call.request.query,
    context: call.context,
  });
  const cached = readResultCacheEntry(await resultCache.get(name, key));
  const served = cached && (await hit(cached));
  if (served) return served;
  const generation = resultCache.generationOf(name);
  const fresh = await read();
  if (fresh.response.status !== 200) return fresh.response;
  const entry = toResultCacheEntry(fresh);
  if (!entry) return fresh.response;
  await resultCache.set(key, entry, ttl, { entity: name, generation });
  return entry.response;
}

export function includeArgs(call: OperationCall) {
  return {
    adapter: call.entity.adapter,
    entity: call.entity.name,
    context: call.context,
    operation: call.operation.id,
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
  if (call.operation.id === 'findMany') checkKeysetConfig(entity.name, entity.metadata, list);
  return list;
}
