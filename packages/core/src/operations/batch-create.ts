/**
 * The stages of `createMany`: each item under createOne's rules (the create slot with `set`, the policy, references in
 * scope), and, as an upsert, the rows its items match on the conflict target changed as a patch of each would.
 */
import type { ResolvedBatch } from '../config/batch-config';
import {
  BatchTooLargeException,
  ForbiddenException,
  NotFoundException,
  ValidationFailedException,
} from '../errors/svc-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import { readBody } from '../schema/validate-body';
import type { OperationCall } from '../pipeline/operation-call';
import { liveView, scopeFilter } from '../pipeline/load-row';
import { stage, type BatchRowWrite, type PlannedRowWrite } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { bodyWithSet, forcedValuesFor } from './body-with-set';
import { readNested, writeToMany, writeToOne, type NestedPlan } from './nested-writes';
import {
  atItem,
  batchOf,
  chunked,
  comparable,
  ItemProblems,
  keyOrder,
  matchingTarget,
  READ_CHUNK,
  refusedAt,
  rereadAll,
} from './batch-rows';

/**
 * items: the body is a JSON array of 1 to `maxItems` create bodies, each checked against the create slot with what
 * `set` forces merged over it. Every item's problems are reported together, each field prefixed by its index (`[3].title`).
 */
export const batchItemsStage = stage('items', { phase: 'input', gives: ['items'] }, async (call, state) => {
  const body = call.request.body;
  const { maxItems } = batchOf(call);
  if (!Array.isArray(body) || body.length === 0) {
    throw new ValidationFailedException(
      [{ field: '', code: 'type', detail: `must be a JSON array of 1 to ${maxItems} ${call.entity.name} objects.` }],
      `The body must be a JSON array of 1 to ${maxItems} ${call.entity.name} objects.`,
    );
  }
  if (body.length > maxItems) throw new BatchTooLargeException('maxItems', maxItems, body.length);
  const schema = call.operation.input ?? call.entity.input.create;
  const problems = new ItemProblems();
  const items: Row[] = [];
  const nested: (NestedPlan | undefined)[] = [];
  for (const [index, item] of body.entries()) {
    const values = await problems.check(index, async () => {
      // An item's nested forms (relations.<name>.write.nested) are read as a createOne body's are.
      const { body: own, plan } = await readNested(call, 'create', item);
      if (plan && batchOf(call).upsert)
        throw new ValidationFailedException(
          plan.toOne.concat(plan.toMany).map(({ nested: relation }) => ({
            field: relation.relation.property,
            code: 'not_allowed',
            detail: 'an upsert takes no nested writes; create the related rows first, or create this row alone.',
          })),
        );
      nested[index] = plan;
      return bodyWithSet(call, 'create', schema, own);
    });
    if (values) items.push(values);
  }
  problems.throwIfAny();
  state.items = items;
  if (nested.some((plan) => plan !== undefined)) state.nestedItems = nested;
});

/** policy: asked once per item, with that item as `body`; one refusal refuses the batch, naming the item. */
export const itemsPolicyStage = stage('policy', { phase: 'guard', needs: ['items'] }, async (call) => {
  const bodies = call.request.body as unknown[];
  for (const [index, body] of bodies.entries()) await refusedAt(index, () => checkPolicy(call, { body }));
});

/**
 * create: inside the transaction, each item's references checked in scope; with an upsert, the live rows the items
 * match on the conflict target read and locked (one outside the caller's scope refused like a missing row, each
 * matched one given to the policy), the new items inserted in multi-row statements, the matched ones updated in
 * one statement per chunk, and every written row read back inside the scope.
 */
export const createRowsStage = stage(
  'createRows',
  { phase: 'act', needs: ['items', 'session'], gives: ['written'] },
  async (call, state) => {
    const { items, session } = state;
    const nested = state.nestedItems ?? [];
    for (const [index, plan] of nested.entries()) {
      if (!plan) continue;
      // A retried attempt starts with nothing written.
      plan.pending!.length = 0;
      await writeToOne(plan, items[index]!, session);
    }
    for (const [index, values] of items.entries()) {
      await refusedAt(index, () => requireReferencesInScope(call, values, session));
    }
    const upsert = batchOf(call).upsert;
    const existing = upsert ? await matchConflicts(call, items, upsert, session) : items.map(() => null);
    const keys: EntityKey[] = existing.map((row) => (row ? primaryKeyOf(call, row) : {}));
    const changes = upsert ? await matchedChanges(call, existing, keys, upsert) : [];
    state.planned = plannedWrites(items, existing, keys, changes);
    const fresh = items.flatMap((values, index) => (existing[index] ? [] : [{ values, index }]));
    const inserted =
      fresh.length > 0
        ? await call.entity.adapter.insertMany(
            fresh.map(({ values }) => values),
            { session },
          )
        : [];
    const returned = new Map<number, Row>();
    fresh.forEach(({ index }, at) => {
      keys[index] = inserted[at]!.key;
      if (inserted[at]!.row) returned.set(index, inserted[at]!.row!);
    });
    for (const [index, plan] of nested.entries()) if (plan) await writeToMany(call, plan, keys[index]!, session);
    if (changes.length > 0) await call.entity.adapter.updateEach(changes, { session });
    const changed = new Set(changes.map(({ index }) => index));
    const after = await rereadAll(call, keys, session, returned);
    state.written = keys.map((key, index): BatchRowWrite => {
      const before = existing[index] ?? null;
      const write = { key, before, after: after[index]! };
      if (!before) return { ...write, event: 'created' };
      return changed.has(index) ? { ...write, event: 'patched' } : write;
    });
  },
);

/** What each item writes, in input order: its values as a created row, or the row it matched with its change over it. */
function plannedWrites(
  items: readonly Row[],
  existing: readonly (Row | null)[],
  keys: readonly EntityKey[],
  changes: readonly { values: Row; index: number }[],
): PlannedRowWrite[] {
  const changeAt = new Map(changes.map(({ index, values }) => [index, values]));
  return items.map((values, index) => {
    const row = existing[index];
    if (!row) return { index, values, sets: Object.keys(values) };
    const change = changeAt.get(index) ?? {};
    return { index, values: { ...row, ...change }, sets: Object.keys(change), key: keys[index]! };
  });
}

/**
 * What each matched upsert item changes, as a patch of that row would: the configured fields it sends (`all`: every
 * field it sends that the patch slot takes, but the target), checked against the patch slot, with what `set.update`
 * forces over them; never the primary key. Problems are reported together, each prefixed by its item's index.
 */
async function matchedChanges(
  call: OperationCall,
  existing: readonly (Row | null)[],
  keys: readonly EntityKey[],
  upsert: NonNullable<ResolvedBatch['upsert']>,
): Promise<{ key: EntityKey; values: Row; index: number }[]> {
  const bodies = call.request.body as Record<string, unknown>[];
  const patch = call.entity.input.patch;
  const changes: { key: EntityKey; values: Row; index: number }[] = [];
  const problems = new ItemProblems();
  for (const [index, row] of existing.entries()) {
    if (!row) continue;
    // A role whose rule refuses updates (`access`) may create, but not change a row its item matches.
    if (call.entity.refusesUpdates)
      throw atItem(index, new ForbiddenException('updateOne', call.entity.name, 'Your role may not update rows.'));
    const body = bodies[index]!;
    const fields =
      upsert.update === 'all'
        ? Object.keys(body).filter((field) => !upsert.target.includes(field) && patch.fields.has(field))
        : upsert.update.filter((field) => Object.hasOwn(body, field));
    if (fields.length === 0) continue;
    const values = await problems.check(index, () =>
      readBody(patch, Object.fromEntries(fields.map((field) => [field, body[field]]))),
    );
    if (!values) continue;
    const change: Row = { ...values, ...(await forcedValuesFor(call, 'update', body)) };
    for (const key of call.entity.metadata.primaryKeys) delete change[key];
    changes.push({ key: keys[index]!, values: change, index });
  }
  problems.throwIfAny();
  return changes;
}

/**
 * The live row each item matches on the conflict target (null: none), locked. Two items naming one target are a
 * 400; a matched row outside the caller's scope is refused like a missing one (404), and the policy sees each match.
 */
async function matchConflicts(
  call: OperationCall,
  items: readonly Row[],
  upsert: NonNullable<ResolvedBatch['upsert']>,
  session: AdapterSession,
): Promise<(Row | null)[]> {
  const { target, targetKinds } = upsert;
  // Target values compare by their column's kind: a driver may hand a number back as text, a uuid in lower case.
  const signature = (row: Row) => JSON.stringify(target.map((field, at) => comparable(targetKinds[at], row[field])));
  // An item without every target value matches no row (a unique index never holds two nulls equal): it is inserted.
  const matchable = (values: Row) => target.every((field) => values[field] !== undefined && values[field] !== null);
  const firstOf = new Map<string, number>();
  const problems = new ItemProblems();
  for (const [index, values] of items.entries()) {
    if (!matchable(values)) continue;
    const seen = firstOf.get(signature(values));
    if (seen === undefined) firstOf.set(signature(values), index);
    else {
      const detail = `repeats the ${target.join(', ')} of item [${seen}]; send each row once per batch.`;
      problems.add(index, target[0], 'duplicate', detail);
    }
  }
  problems.throwIfAny();
  const candidates = items.filter(matchable);
  if (candidates.length === 0) return items.map(() => null);
  const view = liveView(call);
  const scope = await scopeFilter(call);
  const rows: Row[] = [];
  const visible = new Set<string>();
  // Only rows inside the scope are locked; the others are read (unlocked) to refuse an item that names one.
  const read = (condition: FilterNode | undefined, lock: boolean) =>
    call.entity.adapter.findMany({ where: condition, sort: keyOrder(call), count: false, view, session, lock });
  for (const chunk of chunked(candidates, READ_CHUNK)) {
    const where = matchingTarget(target, chunk);
    const mine = (await read(andFilters(scope, where), true)).rows;
    rows.push(...mine);
    if (!scope) continue;
    for (const row of mine) visible.add(signature(row));
    rows.push(...(await read(where, false)).rows.filter((row) => !visible.has(signature(row))));
  }
  const bySignature = new Map(rows.map((row) => [signature(row), row]));
  const matches: (Row | null)[] = [];
  for (const [index, values] of items.entries()) {
    const row = matchable(values) ? (bySignature.get(signature(values)) ?? null) : null;
    if (row && scope && !visible.has(signature(row))) {
      const id = target.map((field) => String(values[field])).join(',');
      throw atItem(index, new NotFoundException(call.entity.name, id));
    }
    if (row && call.operation.policy) await refusedAt(index, () => checkPolicy(call, { entity: row, body: values }));
    matches.push(row);
  }
  return matches;
}
