/** The stages of createOne, updateOne and patchOne of their own: the body with `set`, and the insert and update. */
import { NotFoundException, SvcException, ValidationFailedException } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import { readBody, requiredItem } from '../schema/validate-body';
import type { RequiredSet } from '../schema/write-schema';
import type { WriteSchema } from '../schema/write-schema';
import { forcedValues, type SetArgs } from '../schema/forced-values';
import type { OperationCall } from '../pipeline/operation-call';
import { stage, type StateWith } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { liveView, scopeFilter } from '../pipeline/load-row';
import { needsIfMatch } from '../pipeline/stages/precondition-stage';
import { referencesIntoScope } from '../pipeline/stages/reference-stage';
import { rereadInScope } from '../pipeline/stages/reread-stage';

/** input: the create or update body checked against its slot, with what `set` forces merged over it. */
export function inputWithSetStage(slot: 'create' | 'update') {
  return stage('input', { phase: 'input', gives: ['values', 'body'] }, async (call, state) => {
    state.values = await bodyWithSet(call, slot, call.operation.input ?? call.entity.input[slot]);
    state.body = slot === 'create' ? call.request.body : state.values;
  });
}

/** input: the patch body checked against the patch slot; a patch that changes nothing is a 400. */
export const patchInputStage = stage('input', { phase: 'input', gives: ['values', 'body'] }, async (call, state) => {
  const values = await readBody(call.operation.input ?? call.entity.input.patch, call.request.body);
  if (Object.keys(values).length === 0) {
    throw new ValidationFailedException([], 'The patch changes nothing. Send at least one writable field.');
  }
  state.values = values;
  state.body = values;
});

/**
 * A write that needs nothing read first runs as one statement that returns the stored row, outside any transaction of
 * its own (a statement is one): on an adapter that returns written rows (decided at bootstrap), with no `filter.apply`
 * scope to hold, no reference into another entity's scope to check, and no realtime event that wants the row as it was.
 */
export async function writesAlone(call: OperationCall, state: StateWith<'values'>): Promise<boolean> {
  if (call.settings.realtime !== false || needsIfMatch(call)) return false;
  if (referencesIntoScope(call, state.values)) return false;
  return (await scopeFilter(call)) === undefined;
}

/** insert: the new row, and its key; `row` is the stored row when the adapter returns it. */
export const insertStage = stage('insert', { phase: 'act', needs: ['values'], gives: ['key'] }, async (call, state) => {
  const inserted = await call.entity.adapter.insert(state.values, { session: state.session });
  state.key = inserted.key;
  state.before = null;
  state.row = inserted.row ?? null;
});

/** insertAlone: the insert as one statement, the stored row read back only when the adapter did not return it. */
export const insertAloneStage = stage(
  'insertAlone',
  { phase: 'act', needs: ['values'], gives: ['key', 'row'] },
  async (call, state) => {
    const inserted = await call.entity.adapter.insert(state.values, {});
    state.key = inserted.key;
    state.before = null;
    state.row = inserted.row ?? (await rereadInScope(call, inserted.key, undefined));
  },
);

/** update: the locked row updated with `values`; `row` is the stored row when the adapter returns it. */
export const updateStage = stage('update', { phase: 'act', needs: ['key', 'values'] }, async (call, state) => {
  state.row = (await call.entity.adapter.update(state.key, state.values, { session: state.session })) ?? null;
});

/**
 * updateAlone: `UPDATE ... WHERE <lookup> AND <live> RETURNING *`, 404 when no live row has the id. With no pre-read,
 * the write's own fields stand for what changed.
 */
export const updateAloneStage = stage(
  'updateAlone',
  { phase: 'act', needs: ['lookup', 'values'], gives: ['row', 'key', 'changed'] },
  async (call, state) => {
    const row = await call.entity.adapter.update(state.lookup, state.values, { view: liveView(call) });
    if (!row) throw new NotFoundException(call.entity.name, call.request.id);
    state.row = row;
    state.key = primaryKeyOf(call, row);
    state.changed = Object.keys(state.values);
  },
);

/** json: a JSON Patch document sent to an entity that takes none is refused with 415, naming the media type to send. */
export const refuseJsonPatchStage = stage('refuseJsonPatch', { phase: 'gate', refuses: true }, (call) => {
  throw new SvcException('SVC_UNSUPPORTED_MEDIA_TYPE', {
    detail: `${call.entity.name} takes no JSON Patch (no relation has write.strategy 'jsonPatch'). Send a JSON object of fields as application/json.`,
  });
});

/**
 * The body checked against its slot, with what `set` forces merged over it (winning over the client's values). A
 * required field that `set` fills need not be sent; one it does not fill is the client's 400.
 */
export async function bodyWithSet(
  call: OperationCall,
  slot: 'create' | 'update',
  schema: WriteSchema,
  body: unknown = call.request.body,
): Promise<Row> {
  const missing: RequiredSet[] = [];
  const values = await readBody(schema, body, { replace: slot === 'update', missing });
  let set: Row;
  try {
    set = await forcedValuesFor(call, slot, body);
  } catch (error) {
    // A set function may rely on a field the client left out: that is the client's mistake, answered as such.
    if (missing.length > 0) throw new ValidationFailedException(missing.map(requiredItem));
    throw error;
  }
  const unfilled = missing.filter((required) => !required.fillable.some((field) => Object.hasOwn(set, field)));
  if (unfilled.length > 0) throw new ValidationFailedException(unfilled.map(requiredItem));
  return { ...values, ...set };
}

/** What `set` forces for this write (of one body of a batch, or of the request's). */
export function forcedValuesFor(call: OperationCall, slot: 'create' | 'update', body: unknown) {
  return forcedValues(call.entity.name, call.entity.metadata, slot, call.entity.forced[slot], {
    operation: call.operation.id as SetArgs['operation'],
    body,
    context: call.context,
  });
}
