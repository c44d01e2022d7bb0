/**
 * The result cache around a read's stages, when `cache.ttl` is in force: a hit skips them (and the database), a miss
 * runs them and stores their 200 response, and for findOne their row, as plain JSON (`toResultCacheEntry`).
 */
import { policyRowOf, readResultCacheEntry, toResultCacheEntry } from '../../cache/result-cache-entry';
import { ttlOf } from '../../entity/served-settings';
import type { OperationCall } from '../operation-call';
import { runStages, type Stage } from '../stage';
import { checkPolicy } from './policy-stage';
import { mayList } from '../../query/related-reach';
import type { ResolvedEntity } from '../../entity/resolved-entity';
import type { RelationMetadata } from '../../persistence/entity-metadata';

/**
 * cached(...): `read` fills `state.response` (and `state.row` for a single row). With `rowPolicy`, a hit runs the policy
 * again on the cached row, and an entry without its row reads as a miss; the miss serves what it stored, so the first
 * read and every hit answer alike.
 */
export function resultCacheStage(read: readonly Stage[], options: { rowPolicy: boolean }): Stage {
  return {
    name: 'cached',
    phase: 'act',
    needs: [],
    // A hit skips the inner stages: what follows may read the response, and nothing else they give.
    gives: ['response'],
    inner: read,
    innerGives: 'declared',
    run: async (call, state) => {
      const ttl = ttlOf(call.settings);
      if (ttl === false || embedsScopedRows(call) || servesComputed(call)) return runStages(call, read, state);
      const { resultCache, name } = call.entity;
      const key = resultCache.key(name, {
        scope: call.entity.cacheScope + (await reachThrough(call)),
        operation: call.operation.id,
        id: call.request.id,
        query: call.request.query,
        context: call.context,
      });
      const cached = readResultCacheEntry(await resultCache.get(name, key));
      if (cached) {
        const row = options.rowPolicy ? policyRowOf(cached) : undefined;
        if (!options.rowPolicy || row !== undefined) {
          if (row !== undefined) await checkPolicy(call, { entity: row });
          state.response = cached.response;
          return;
        }
      }
      const generation = resultCache.generationOf(name);
      await runStages(call, read, state);
      const response = state.response;
      // A read a replica answered before it replayed a committed write is served, not stored.
      if (response?.status !== 200 || call.entity.adapter.routing?.fresh() === false) return;
      const entry = toResultCacheEntry({ response, ...(options.rowPolicy ? { row: state.row ?? undefined } : {}) });
      if (!entry) return;
      await resultCache.set(key, entry, ttl, { entity: name, generation });
      state.response = entry.response;
    },
  };
}

/**
 * Reads whose rows depend on another entity's `filter.apply`, which scopes them per caller: through an include, or a
 * relation path in a filter, sort or search field (`operation.readsThrough`, resolved at bootstrap). Without a
 * `cacheKey` partition those reads would be shared between callers, so they are not cached (the boot check cannot see
 * peers resolved after this entity, so the peers are asked here).
 */
/**
 * Whether the read may serve `computed` fields of a related entity, as deep as an include may go: they may depend on
 * the caller, so such a read is never cached (an entity's own computed fields refuse `cache.ttl` at bootstrap).
 */
function servesComputed({ entity, operation }: OperationCall): boolean {
  let known = computedReach.get(operation);
  if (known === undefined) {
    const seen = new Set<ResolvedEntity>();
    const reaches = (owner: ResolvedEntity, relations: readonly RelationMetadata[], depth: number): boolean =>
      relations.some((relation) => {
        const peer = owner.peer(relation.target);
        if (!peer || seen.has(peer)) return false;
        seen.add(peer);
        if (peer.computed.length > 0) return true;
        const next = [...peer.include.relations.values()].map((includable) => includable.relation);
        return depth < entity.include.maxDepth && reaches(peer, next, depth + 1);
      });
    known = entity.computed.length > 0 || reaches(entity, operation.readsThrough ?? [], 1);
    computedReach.set(operation, known);
  }
  return known;
}

const computedReach = new WeakMap<object, boolean>();

function embedsScopedRows({ entity, operation }: OperationCall): boolean {
  if (entity.resultCache.partitioned) return false;
  return (operation.readsThrough ?? []).some((relation) => entity.peer(relation.target)?.filterApply !== undefined);
}

/**
 * What of the caller decides the related rows a read embeds or filters through: for each related entity, whether its
 * policy lets the caller list it and the caller's role there (`access`). Part of the key, so two callers whose reads
 * would differ there never share an entry (the caller's own role is in the entity's scope already).
 */
async function reachThrough({ entity, operation, context }: OperationCall): Promise<string> {
  let reach = '';
  const seen = new Set<ResolvedEntity>();
  // The relations the read goes through, then, as deep as an include may go, those its targets may include.
  const visit = async (owner: ResolvedEntity, relations: readonly RelationMetadata[], depth: number) => {
    for (const relation of relations) {
      const peer = owner.peer(relation.target);
      if (!peer || seen.has(peer)) continue;
      seen.add(peer);
      const role = peer.access ? `=${encodeURIComponent(peer.access.role(context) ?? '')}` : '';
      const listed = (await mayList(peer, context)) ? '' : '!';
      if (role || listed) reach += `~${encodeURIComponent(peer.name)}${listed}${role}`;
      if (depth < entity.include.maxDepth)
        await visit(
          peer,
          [...peer.include.relations.values()].map((includable) => includable.relation),
          depth + 1,
        );
    }
  };
  await visit(entity, operation.readsThrough ?? [], 1);
  return reach;
}
