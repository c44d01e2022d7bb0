/**
 * The stages of the batch writes (`createMany`, `updateMany`, `deleteMany`): every rule of a one-row write, held per
 * item or per matched row, in one transaction with set-based statements, so a refused item leaves nothing written.
 */
import type { ResolvedBatch } from '../config/batch-config';
import { BatchTooLargeException, ForbiddenException, NotFoundException, SvcException } from '../errors/svc-exception';
import { ValidationFailedException, type SvcErrorItem } from '../errors/svc-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import { resolveBatchFilter } from '../query/resolve-list-query';
import { projectRow } from '../schema/output-projection';
import type { OperationCall } from '../pipeline/operation-call';
import { liveView, scopeFilter, softDeletes } from '../pipeline/load-row';
import { stage, type BatchRowWrite } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { bodyWithSet, forcedValuesFor } from './write-operations';
import { readBody } from '../schema/validate-body';
import type { StageListOf } from './operation-definition';

/** The entity's resolved `batch` block; a batch operation is on only where it exists. */
function batchOf(call: OperationCall): ResolvedBatch {
  const batch = call.entity.batch;
  if (!batch) throw new Error(`${call.entity.name}.${call.operation.id} runs without a batch config.`);
  return batch;
}

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
  const items: Row[] = [];
  const problems: SvcErrorItem[] = [];
  for (const [index, item] of body.entries()) {
    try {
      items.push(await bodyWithSet(call, 'create', schema, item));
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      for (const problem of error.errors ?? [{ code: 'invalid', detail: error.detail }]) {
        problems.push({ ...problem, field: atIndex(index, problem.field) });
      }
    }
  }
  if (problems.length > 0) throw new ValidationFailedException(problems, summary(problems));
  state.items = items;
});

/** `[3].title`, or `[3]` for a problem of the whole item. */
function atIndex(index: number, field: string | undefined): string {
  return field ? `[${index}].${field}` : `[${index}]`;
}

function summary(problems: readonly SvcErrorItem[]): string {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `Item ${first.field}: ${first.detail}${more} Nothing was written.`;
}

/** policy: asked once per item, with that item as `body`; one refusal refuses the batch, naming the item. */
export const itemsPolicyStage = stage('policy', { phase: 'guard', needs: ['items'] }, async (call) => {
  const bodies = call.request.body as unknown[];
  for (const [index, body] of bodies.entries()) await refusedAt(index, () => checkPolicy(call, { body }));
});

/** Runs a per-item check; a refusal names the item (`[3]`) and says nothing was written. */
async function refusedAt(index: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (!(error instanceof SvcException) || error.status >= 500) throw error;
    throw new SvcException(error.code, {
      detail: `Item [${index}]: ${error.detail} Nothing was written.`,
      errors: [{ field: `[${index}]`, code: error.code, detail: error.detail }],
      params: { ...error.params, index },
      ...(error.headers ? { headers: error.headers } : {}),
    });
  }
}

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
    for (const [index, values] of items.entries()) {
      await refusedAt(index, () => requireReferencesInScope(call, values, session));
    }
    const upsert = batchOf(call).upsert;
    const existing = upsert ? await matchConflicts(call, items, upsert.target, session) : items.map(() => null);
    const fresh = items.flatMap((values, index) => (existing[index] ? [] : [{ values, index }]));
    const inserted =
      fresh.length > 0
        ? await call.entity.adapter.insertMany(
            fresh.map(({ values }) => values),
            { session },
          )
        : [];
    const keys: EntityKey[] = existing.map((row) => (row ? primaryKeyOf(call, row) : {}));
    const returned = new Map<number, Row>();
    fresh.forEach(({ index }, at) => {
      keys[index] = inserted[at]!.key;
      if (inserted[at]!.row) returned.set(index, inserted[at]!.row!);
    });
    const changes = upsert ? await matchedChanges(call, existing, keys, upsert) : [];
    if (changes.length > 0) await call.entity.adapter.updateEach(changes, { session });
    const changed = new Set(changes.map(({ index }) => index));
    const after = await rereadAll(call, keys, session, returned, changed.size === 0);
    state.written = keys.map((key, index): BatchRowWrite => {
      const before = existing[index] ?? null;
      const write = { key, before, after: after[index]! };
      if (!before) return { ...write, event: 'created' };
      return changed.has(index) ? { ...write, event: 'patched' } : write;
    });
  },
);

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
  const problems: SvcErrorItem[] = [];
  for (const [index, row] of existing.entries()) {
    if (!row) continue;
    const body = bodies[index]!;
    const fields =
      upsert.update === 'all'
        ? Object.keys(body).filter((field) => !upsert.target.includes(field) && patch.fields.has(field))
        : upsert.update.filter((field) => Object.hasOwn(body, field));
    if (fields.length === 0) continue;
    try {
      const values = await readBody(patch, Object.fromEntries(fields.map((field) => [field, body[field]])));
      const forced = await forcedValuesFor(call, 'update', body);
      const change: Row = { ...values, ...forced };
      for (const key of call.entity.metadata.primaryKeys) delete change[key];
      changes.push({ key: keys[index]!, values: change, index });
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      for (const problem of error.errors ?? [{ code: 'invalid', detail: error.detail }]) {
        problems.push({ ...problem, field: atIndex(index, problem.field) });
      }
    }
  }
  if (problems.length > 0) throw new ValidationFailedException(problems, summary(problems));
  return changes;
}

/**
 * The live row each item matches on the conflict target (null: none), locked. Two items naming one target are a
 * 400; a matched row outside the caller's scope is refused like a missing one (404), and the policy sees each match.
 */
async function matchConflicts(
  call: OperationCall,
  items: readonly Row[],
  target: readonly string[],
  session: AdapterSession,
): Promise<(Row | null)[]> {
  // Target values compare by their column's kind: a driver may hand a number back as text, a uuid in lower case.
  const kinds = new Map(call.entity.metadata.columns.map((column) => [column.property, column.kind]));
  const signature = (row: Row) => JSON.stringify(target.map((field) => comparable(kinds.get(field), row[field])));
  // An item without every target value matches no row (a unique index never holds two nulls equal): it is inserted.
  const matchable = (values: Row) => target.every((field) => values[field] !== undefined && values[field] !== null);
  const firstOf = new Map<string, number>();
  const problems: SvcErrorItem[] = [];
  for (const [index, values] of items.entries()) {
    if (!matchable(values)) continue;
    const seen = firstOf.get(signature(values));
    if (seen !== undefined) {
      const detail = `repeats the ${target.join(', ')} of item [${seen}]; send each row once per batch.`;
      problems.push({ field: atIndex(index, target[0]), code: 'duplicate', detail });
    } else firstOf.set(signature(values), index);
  }
  if (problems.length > 0) throw new ValidationFailedException(problems, summary(problems));
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
      await refusedAt(index, () => Promise.reject(new NotFoundException(call.entity.name, id)));
    }
    if (row && call.operation.policy) await refusedAt(index, () => checkPolicy(call, { entity: row, body: values }));
    matches.push(row);
  }
  return matches;
}

/**
 * The written rows as the database now holds them, inside the caller's scope, in key order; a row the write moved
 * out of the scope refuses the batch (403) and rolls it back. Rows the insert returned stand when nothing needs
 * checking.
 */
async function rereadAll(
  call: OperationCall,
  keys: readonly EntityKey[],
  session: AdapterSession,
  returned: ReadonlyMap<number, Row> = new Map(),
  noUpdates = true,
): Promise<Row[]> {
  const scope = await scopeFilter(call);
  if (!scope && noUpdates && returned.size === keys.length) return keys.map((_key, index) => returned.get(index)!);
  const rows: Row[] = [];
  for (const chunk of chunked(keys, READ_CHUNK)) {
    const where = andFilters(scope, keysFilter(call, chunk));
    const read = await call.entity.adapter.findMany({
      where,
      sort: keyOrder(call),
      count: false,
      view: 'all',
      session,
    });
    rows.push(...read.rows);
  }
  const byKey = new Map(rows.map((row) => [keyString(call, row), row]));
  return keys.map((key) => {
    const row = byKey.get(keyString(call, key));
    if (row) return row;
    throw new ForbiddenException(
      call.operation.id,
      call.entity.name,
      `A written ${call.entity.name} would fall outside your scope (filter.apply), so nothing was written. Keep the scoped fields within your scope.`,
    );
  });
}

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

/** update: the one patch set on every matched row in set-based statements, then each row read back in scope. */
export const updateRowsStage = stage(
  'updateRows',
  { phase: 'act', needs: ['matched', 'values', 'session'], gives: ['written'] },
  async (call, state) => {
    const { matched, values, session } = state;
    const keys = matched.map((row) => primaryKeyOf(call, row));
    if (keys.length > 0) {
      await requireReferencesInScope(call, values, session);
      await call.entity.adapter.updateMany(keys, values, { session });
    }
    const after = keys.length > 0 ? await rereadAll(call, keys, session) : [];
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

/** A target value as it compares, by its column's kind (JSON text of the value, whatever the driver hands back). */
function comparable(kind: string | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (kind === 'uuid') return String(value).toLowerCase();
  if (kind === 'integer' || kind === 'number' || kind === 'decimal') {
    const number = Number(value);
    return Number.isFinite(number) ? String(number) : String(value);
  }
  if (kind === 'bigint') {
    try {
      return BigInt(String(value)).toString();
    } catch {
      return String(value);
    }
  }
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Rows one read of a batch names: an `IN` list or an OR of composite keys stays within every database's limits. */
const READ_CHUNK = 500;

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The rows whose `target` columns equal one of the items': `IN` for one column, an OR of ANDs for several. */
function matchingTarget(target: readonly string[], items: readonly Row[]): FilterNode {
  if (target.length === 1) {
    const [field] = target as [string];
    return { kind: 'condition', field, operator: 'in', value: items.map((values) => values[field]) };
  }
  return anyOf(items.map((values) => allOf(target.map((field) => [field, values[field]]))));
}

/** A batch write has no replacement handler: one on it or on its one-row operation stops the boot (`counterpart`). */
export const notReplaceable: StageListOf = (entity, operation) => {
  throw new Error(`${entity.name}.${operation.id} has no replacement handler; the boot refuses one.`);
};

/** The primary key's columns ascending: rows are read and locked in one order, so concurrent batches queue. */
function keyOrder(call: OperationCall) {
  return call.entity.metadata.primaryKeys.map((field) => ({ field, direction: 'asc' as const }));
}

/** `key IN (...)` (or an OR of composite keys) for the rows of `keys`. */
function keysFilter(call: OperationCall, keys: readonly EntityKey[]): FilterNode {
  const fields = call.entity.metadata.primaryKeys;
  if (fields.length === 1) {
    const [field] = fields as [string];
    return { kind: 'condition', field, operator: 'in', value: keys.map((key) => key[field]) };
  }
  return anyOf(keys.map((key) => allOf(fields.map((field) => [field, key[field]]))));
}

function allOf(pairs: readonly (readonly [string, unknown])[]): FilterNode {
  const children: FilterNode[] = pairs.map(([field, value]) => ({ kind: 'condition', field, operator: 'eq', value }));
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

function anyOf(children: readonly FilterNode[]): FilterNode {
  return children.length === 1 ? children[0]! : { kind: 'or', children };
}

function keyString(call: OperationCall, row: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(call.entity.metadata.primaryKeys.map((field) => String(row[field])));
}
