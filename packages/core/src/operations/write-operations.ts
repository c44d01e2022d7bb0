/** createOne, updateOne and patchOne: validate, then lock, check, write and re-read in one transaction. */
import { NotFoundException, SvcException, ValidationFailedException } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';

import { readBody, requiredItem } from '../schema/validate-body';
import type { WriteSchema } from '../schema/write-schema';
import { forcedValues } from '../schema/forced-values';
import type { EntityKey } from '../persistence/entity-metadata';
import type { ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import { primaryKeyOf, readLookupKey } from '../pipeline/stages/key-stage';
import { liveView, scopeFilter } from '../pipeline/stages/load-row-stage';
import { itemResponse } from '../pipeline/stages/output-stage';
import { checkPolicy } from '../pipeline/stages/policy-stage';
import { needsIfMatch, refuseIfMatch } from '../pipeline/stages/precondition-stage';
import { runInTransaction } from '../pipeline/run-in-transaction';
import { referencesIntoScope, requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { runHandler } from './run-handler';
import { guardRow } from '../pipeline/stages/guard-stage';
import { rereadInScope } from '../pipeline/stages/reread-stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { jsonPatchOne, takesJsonPatch } from './json-patch';

export async function createOne(call: OperationCall): Promise<ExecuteResponse> {
  refuseIfMatch(call);
  const values = await bodyWithSet(call, 'createOne', call.operation.input ?? call.entity.input.create);
  await checkPolicy(call, { body: call.request.body });
  if (call.operation.handler)
    return itemResponse(call, (await runHandler(call, { body: values })) as Row, { status: 201 });
  const { key, row } = (await writesAlone(call, values))
    ? await insertAlone(call, values)
    : await runInTransaction(call, async (session) => {
        await requireReferencesInScope(call, values, session);
        const inserted = await call.entity.adapter.insert(values, { session });
        return { key: inserted.key, row: await rereadInScope(call, inserted.key, session, inserted.row) };
      });
  recordOutcome(call, { event: 'created', key, before: null, after: row });
  const response = itemResponse(call, row, { status: 201 });
  const lookupValues = call.entity.lookup.fields.map((field) => String(row[field]));
  return { ...response, resourceId: lookupValues.join(',') };
}

export async function updateOne(call: OperationCall): Promise<ExecuteResponse> {
  return writeExisting(call, await bodyWithSet(call, 'updateOne', call.operation.input ?? call.entity.input.update));
}

export async function patchOne(call: OperationCall): Promise<ExecuteResponse> {
  if (call.request.jsonPatch) {
    if (!takesJsonPatch(call))
      throw new SvcException('SVC_UNSUPPORTED_MEDIA_TYPE', {
        detail: `${call.entity.name} takes no JSON Patch (no relation has write.strategy 'jsonPatch'). Send a JSON object of fields as application/json.`,
      });
    return jsonPatchOne(call);
  }
  const values = await readBody(call.operation.input ?? call.entity.input.patch, call.request.body);
  if (Object.keys(values).length === 0) {
    throw new ValidationFailedException([], 'The patch changes nothing. Send at least one writable field.');
  }
  return writeExisting(call, values);
}

async function writeExisting(call: OperationCall, values: Row): Promise<ExecuteResponse> {
  const lookup = readLookupKey(call);
  if (call.operation.handler) return itemResponse(call, (await runHandler(call, { key: lookup, body: values })) as Row);
  const event = call.operation.id === 'updateOne' ? 'updated' : 'patched';
  if (!needsIfMatch(call) && !call.operation.policy && (await writesAlone(call, values))) {
    const row = await updateAlone(call, lookup, values);
    // No pre-read: the write's own fields stand for what changed.
    recordOutcome(call, { event, key: primaryKeyOf(call, row), after: row, changed: Object.keys(values) });
    return itemResponse(call, row);
  }
  const { key, before, row } = await runInTransaction(call, async (session) => {
    const locked = await guardRow(call, lookup, session, { body: values });
    const key = primaryKeyOf(call, locked);
    await requireReferencesInScope(call, values, session);
    const stored = await call.entity.adapter.update(key, values, { session });
    return { key, before: locked, row: await rereadInScope(call, key, session, stored ?? undefined) };
  });
  recordOutcome(call, { event, key, before, after: row });
  return itemResponse(call, row);
}

/**
 * A write that needs nothing read first runs as one statement that returns the stored row, outside any transaction of
 * its own (a statement is one): on an adapter that returns written rows, with no `filter.apply` scope to hold, no
 * reference into another entity's scope to check, and no realtime event that wants the row as it was.
 */
async function writesAlone(call: OperationCall, values: Row): Promise<boolean> {
  if (!call.entity.adapter.returnsWrittenRows || call.settings.realtime !== false) return false;
  if (referencesIntoScope(call, values)) return false;
  return (await scopeFilter(call)) === undefined;
}

async function insertAlone(call: OperationCall, values: Row): Promise<{ key: EntityKey; row: Row }> {
  const inserted = await call.entity.adapter.insert(values, {});
  return { key: inserted.key, row: inserted.row ?? (await rereadInScope(call, inserted.key, undefined)) };
}

/** `UPDATE ... WHERE <lookup> AND <live> RETURNING *`: 404 when no live row has the id. */
async function updateAlone(call: OperationCall, lookup: EntityKey, values: Row): Promise<Row> {
  const row = await call.entity.adapter.update(lookup, values, { view: liveView(call) });
  if (!row) throw new NotFoundException(call.entity.name, call.request.id);
  return row;
}

/**
 * The body checked against its slot, with what `set` forces merged over it (winning over the client's values). A
 * required field that `set` fills need not be sent; one it does not fill is the client's 400.
 */
async function bodyWithSet(call: OperationCall, operation: 'createOne' | 'updateOne', slot: WriteSchema): Promise<Row> {
  const missing: string[] = [];
  const body = await readBody(slot, call.request.body, { replace: operation === 'updateOne', missing });
  let set: Row;
  try {
    set = await forced(call, operation);
  } catch (error) {
    // A set function may rely on a field the client left out: that is the client's mistake, answered as such.
    if (missing.length > 0) throw new ValidationFailedException(missing.map(requiredItem));
    throw error;
  }
  const unfilled = missing.filter((field) => !Object.hasOwn(set, field));
  if (unfilled.length > 0) throw new ValidationFailedException(unfilled.map(requiredItem));
  return { ...body, ...set };
}

/** What `set` forces for this write. */
function forced(call: OperationCall, operation: 'createOne' | 'updateOne') {
  const fn = operation === 'createOne' ? call.entity.forced.create : call.entity.forced.update;
  return forcedValues(call.entity.name, call.entity.metadata, fn, {
    operation,
    body: call.request.body,
    context: call.context,
  });
}
