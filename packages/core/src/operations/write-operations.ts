/** The stages of createOne, updateOne and patchOne of their own: the body with `set`, and the insert and update. */
import { NotFoundException, SvcException, ValidationFailedException } from '../errors/svc-exception';
import { readBody } from '../schema/validate-body';
import type { OperationCall } from '../pipeline/operation-call';
import { stage, type StateWith } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { liveView, scopeFilter } from '../pipeline/load-row';
import { needsIfMatch } from '../pipeline/stages/precondition-stage';
import { referencesIntoScope } from '../pipeline/stages/reference-stage';
import { rereadInScope } from '../pipeline/stages/reread-stage';
import { readNested } from './nested-writes';
import { bodyWithSet } from './body-with-set';

/**
 * input: the create or update body checked against its slot, with what `set` forces merged over it. With `nested`
 * (the flow writes nested relations), the nested forms are taken out and read first, every nested row checked.
 */
export function inputWithSetStage(slot: 'create' | 'update', options: { nested?: boolean } = {}) {
  return stage('input', { phase: 'input', gives: ['values', 'body'] }, async (call, state) => {
    const { body, plan } = options.nested
      ? await readNested(call, slot, call.request.body)
      : { body: call.request.body };
    state.values = await bodyWithSet(call, slot, call.operation.input ?? call.entity.input[slot], body);
    state.body = slot === 'create' ? call.request.body : state.values;
    if (plan) state.nested = plan;
  });
}

/** input: the patch body checked against the patch slot; a patch that changes nothing is a 400. */
export const patchInputStage = patchInput({});

/** The patch input stage, reading nested forms first where the flow writes them. */
export function patchInput(options: { nested?: boolean }) {
  return stage('input', { phase: 'input', gives: ['values', 'body'] }, async (call, state) => {
    const { body, plan } = options.nested
      ? await readNested(call, 'update', call.request.body)
      : { body: call.request.body };
    const values = await readBody(call.operation.input ?? call.entity.input.patch, body);
    if (plan) state.nested = plan;
    if (Object.keys(values).length === 0 && !plan) {
      throw new ValidationFailedException([], 'The patch changes nothing. Send at least one writable field.');
    }
    state.values = values;
    state.body = values;
  });
}

/**
 * A write that needs nothing read first runs as one statement that returns the stored row, outside any transaction of
 * its own (a statement is one): on an adapter that returns written rows (decided at bootstrap), with no `filter.apply`
 * scope to hold, no reference into another entity's scope to check, and no realtime event that wants the row as it was.
 */
export async function writesAlone(call: OperationCall, state: StateWith<'values'>): Promise<boolean> {
  if (call.settings.realtime !== false || needsIfMatch(call) || state.nested) return false;
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
  // A body that only writes nested to-many rows changes none of the row's own columns.
  if (Object.keys(state.values).length === 0) return;
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
