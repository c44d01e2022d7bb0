/**
 * The stages every batch write shares, and those of `updateMany` and `deleteMany`: the required filter, the matched
 * rows read and locked in scope (each passed by the policy, which the definitions ask first without a row), the
 * set-based write, one outcome per row, the answer.
 */
import { BatchTooLargeException } from '../errors/svc-exception';
import { andFilters } from '../persistence/query-ast';
import { resolveBatchFilter } from '../query/resolve-batch-filter';
import { projectRow } from '../schema/output-projection';
import { liveView, scopeFilter, softDeletes } from '../pipeline/load-row';
import { stage } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { batchOf, byKeyIndex, keyOrder, rereadAll } from './batch-rows';
import type { Row } from '../persistence/repository-adapter';

/** filter: the client's required filter, resolved against the allowlist and limits of the list grammar. */
export const batchFilterStage = stage('filter', { phase: 'plan', gives: ['filter'] }, async (call, state) => {
  const list = call.operation.list;
  if (!list) throw new Error(`${call.entity.name}.${call.operation.id} has no filter config.`);
  state.filter = await resolveBatchFilter(call.request.query, list, {
    operation: call.operation.id,
    context: call.context,
  });
});

/**
 * match: inside the transaction, the live rows the filter matches inside the caller's scope, read in key order and
 * locked (at most `maxAffected`: more is refused before anything changes, naming the count), each given to the
 * policy with the batch's body.
 */
export const matchRowsStage = stage(
  'match',
  { phase: 'guard', needs: ['filter', 'session'], gives: ['matched'] },
  async (call, state) => {
    const { maxAffected } = batchOf(call);
    const where = andFilters(await scopeFilter(call), state.filter);
    const view = liveView(call);
    const { adapter } = call.entity;
    const read = { where, sort: keyOrder(call), view, session: state.session };
    const { rows } = await adapter.findMany({ ...read, limit: maxAffected + 1, count: false, lock: true });
    if (rows.length > maxAffected) {
      const { total } = await adapter.findMany({ ...read, limit: 1, count: true });
      throw new BatchTooLargeException('maxAffected', maxAffected, total ?? rows.length);
    }
    if (call.operation.policy) {
      for (const row of rows) await checkPolicy(call, { entity: row, body: state.values });
    }
    state.matched = rows;
  },
);

/**
 * update: the one patch set on every matched row in set-based statements, then each row as stored: the rows the
 * UPDATE returned where the database returns them and no scope needs checking, else read back in scope.
 */
export const updateRowsStage = stage(
  'updateRows',
  { phase: 'act', needs: ['matched', 'values', 'session'], gives: ['written'] },
  async (call, state) => {
    const { matched, values, session } = state;
    const keys = matched.map((row) => primaryKeyOf(call, row));
    let after: Row[] = [];
    if (keys.length > 0) {
      await requireReferencesInScope(call, values, session);
      const stored = await call.entity.adapter.updateMany(keys, values, { session });
      after = await rereadAll(call, keys, session, stored ? byKeyIndex(call, keys, stored) : undefined);
    }
    state.written = keys.map((key, index) => ({
      key,
      before: matched[index]!,
      after: after[index]!,
      event: 'patched',
    }));
  },
);

/** delete: every matched row soft-deleted (where the entity soft-deletes) or removed, in set-based statements. */
export const deleteRowsStage = stage(
  'deleteRows',
  { phase: 'act', needs: ['matched', 'session'], gives: ['written'] },
  async (call, state) => {
    const { matched, session } = state;
    const keys = matched.map((row) => primaryKeyOf(call, row));
    if (keys.length > 0) {
      if (softDeletes(call)) await call.entity.adapter.softDeleteMany(keys, { session });
      else await call.entity.adapter.removeMany(keys, { session });
    }
    state.written = keys.map((key, index) => ({ key, before: matched[index]!, after: null, event: 'deleted' }));
  },
);

/** outcome: one per written row, each publishing its own event after commit; the cache is dropped once for all. */
export const batchOutcomeStage = stage('outcome', { phase: 'record', needs: ['written'] }, (call, state) => {
  for (const { event, key, before, after } of state.written) {
    if (event) recordOutcome(call, { event, key, before, after });
  }
  // The items' nested rows, now that the transaction that wrote them has committed.
  for (const plan of state.nestedItems ?? []) if (plan?.pending) call.outcomes.push(...plan.pending);
});

/**
 * output: `{ items, total }`, each item as the row's own write answers it (a delete's as its route key); an
 * upsert's adds `meta: { created, updated }` and answers 200 when any item updated a row.
 */
export function batchOutputStage(status: number) {
  return stage('output', { phase: 'respond', needs: ['written'], gives: ['response'] }, (call, state) => {
    const fields = call.operation.outputFields ?? call.entity.output.fields;
    // A deleted row answers by the fields its route takes (`identifier.field`, else the primary key), as deleteOne does.
    const lookup = call.entity.lookup.fields;
    const items = state.written.map(({ before, after }) =>
      after ? projectRow(after, { fields }) : Object.fromEntries(lookup.map((field) => [field, before?.[field]])),
    );
    const body: Record<string, unknown> = { items, total: items.length };
    let answered = status;
    if (call.operation.facts?.takes.items && call.entity.batch?.upsert) {
      const created = state.written.filter((written) => written.before === null).length;
      body.meta = { created, updated: items.length - created };
      if (created < items.length) answered = 200;
    }
    state.response = { status: answered, body, headers: {} };
  });
}
