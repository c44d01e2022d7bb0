/**
 * The stages of array writes of to-many relations (`relations.<name>.write`) of their own: list, add, remove and
 * replace members of one parent (the parent locked by the guard, its item returned).
 */
import type { ArrayRelation } from '../config/array-relations';
import {
  NotFoundException,
  UnresolvedRelationException,
  ValidationFailedException,
  type SvcErrorItem,
} from '../errors/svc-exception';
import { andFilters } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import type { EntityKey } from '../persistence/entity-metadata';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import { stage } from '../pipeline/stage';
import { primaryKeyOf } from '../pipeline/stages/lookup-stage';
import { scopeOf } from '../pipeline/load-row';
import { checkColumnValue } from '../schema/check-column-value';
import { projectRow } from '../schema/output-projection';

/** What one request changes in one relation: ids to attach, ids to detach, or the whole new set. */
export interface MemberChange {
  readonly add?: readonly unknown[];
  readonly remove?: readonly unknown[];
  readonly replace?: readonly unknown[];
}

/** members: the member ids the body names, for a relation the update slot lets clients write. */
export const memberIdsStage = stage('members', { phase: 'input', gives: ['work', 'body'] }, (call, state) => {
  const { relation, action } = relationWriteOf(call);
  const array = arrayOf(call, relation);
  requireWritable(call, relation);
  const ids = readMemberIds(array, call.request.body);
  state.work = action === 'add' ? { add: ids } : action === 'remove' ? { remove: ids } : { replace: ids };
  state.body = call.request.body;
});

/** apply: the member change on the row the guard locked; the relation is what changed when members moved. */
export const applyMembersStage = stage(
  'apply',
  { phase: 'act', needs: ['key', 'work', 'session'], gives: ['changed', 'touches'] },
  async (call, state) => {
    const { relation } = relationWriteOf(call);
    const array = arrayOf(call, relation);
    const moved = await applyMembers(call, array, state.key, state.work as MemberChange, state.session);
    state.row = null;
    state.changed = moved ? [relation] : [];
    state.touches = moved ? [array.relation.targetName] : [];
  },
);

/** The relation and action of a relation operation (resolved for relation operations only). */
function relationWriteOf(call: OperationCall): NonNullable<OperationCall['operation']['relationWrite']> {
  const relationWrite = call.operation.relationWrite;
  if (!relationWrite) throw new Error(`${call.operation.id} is not a relation operation.`);
  return relationWrite;
}

/** The array relation of this name (resolved with the operation, so always there). */
function arrayOf(call: OperationCall, relation: string): ArrayRelation {
  const array = call.entity.arrayRelations.get(relation);
  if (!array) throw new Error(`${call.entity.name} has no array relation '${relation}'.`);
  return array;
}

/** The update slot decides whether clients may write this relation (a field list must name it). */
export function requireWritable(call: OperationCall, relation: string): void {
  if (call.entity.writableMembers.has(relation)) return;
  throw new ValidationFailedException([
    {
      field: relation,
      code: 'not_writable',
      detail: `'${relation}' is not writable here: schema.input.update does not list it.`,
    },
  ]);
}

/** Member ids from a body: an array (or one value) of ids or `{ <key>: id }` references, checked by the key's kind. */
export function readMemberIds(array: ArrayRelation, body: unknown): unknown[] {
  const key = array.targetKey.property;
  const values = Array.isArray(body) ? body : [body];
  requireFewMembers(array, values.length);
  const errors: SvcErrorItem[] = [];
  const ids = values.map((value, index) => {
    const given = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row)[key] : value;
    // Ids from a path or a query string arrive as text.
    const numeric = ['integer', 'number'].includes(array.targetKey.kind);
    const raw = numeric && typeof given === 'string' && /^-?\d+(\.\d+)?$/.test(given) ? Number(given) : given;
    const checked =
      raw === undefined || raw === null ? undefined : checkColumnValue({ ...array.targetKey, nullable: false }, raw);
    if (checked?.ok) return checked.value;
    errors.push({
      field: `${array.relation.property}[${index}]`,
      code: 'invalid_value',
      detail: `must be a ${array.relation.targetName} id or { "${key}": id }${checked ? `; it ${checked.reason}` : ''}.`,
    });
    return undefined;
  });
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return [...new Map(ids.map((id) => [String(id), id])).values()];
}

/** One request names at most `write.maxMembers` member ids: a 400 naming the relation beyond that. */
export function requireFewMembers(array: ArrayRelation, count: number): void {
  if (count <= array.maxMembers) return;
  const name = array.relation.property;
  throw new ValidationFailedException([
    {
      field: name,
      code: 'too_many_members',
      detail: `'${name}' names ${count} members; one request takes at most ${array.maxMembers} (relations.${name}.write.maxMembers). Send them in several requests.`,
    },
  ]);
}

/**
 * Applies a change inside the transaction: adding is idempotent, removing a non-member is 404, replace diffs. True when
 * the member set changed.
 */
export async function applyMembers(
  call: OperationCall,
  array: ArrayRelation,
  key: EntityKey,
  change: MemberChange,
  session: AdapterSession,
): Promise<boolean> {
  const current = new Set((await memberRows(call, array, key, session)).map((row) => memberKey(array, row)));
  const wanted = change.replace ? new Set(change.replace.map(String)) : undefined;
  const add = (change.replace ?? change.add ?? []).filter((id) => !current.has(String(id)));
  const remove = wanted
    ? [...current].filter((id) => !wanted.has(id))
    : (change.remove ?? []).map((id) => {
        if (!current.has(String(id)))
          throw new NotFoundException(
            `${array.relation.targetName} in ${call.entity.name}.${array.relation.property}`,
            id,
          );
        return id;
      });
  if (add.length === 0 && remove.length === 0) return false;
  await requireInTargetScope(call, array, add, session);
  const removeIds = remove.map((id) => coerceKey(array, id));
  await call.entity.adapter.updateRelation!({
    relation: array.relation.property,
    key,
    add,
    remove: removeIds,
    session,
  });
  return true;
}

/** A member id that the parent's relation does not hold: 404 naming the relation. */
export function notAMember(call: OperationCall, array: ArrayRelation, id: unknown): NotFoundException {
  return new NotFoundException(`${array.relation.targetName} in ${call.entity.name}.${array.relation.property}`, id);
}

/** A to-many relation and its target's key: an array relation's, a nested write's, or one `relate` names. */
export type MemberRelation = Pick<ArrayRelation, 'relation'> & { readonly targetKey: { readonly property: string } };

/**
 * Rows outside the target entity's own `filter.apply` cannot be attached: answered like ids that do not exist (422),
 * so the scope does not leak which rows exist.
 */
export async function requireInTargetScope(
  call: OperationCall,
  array: MemberRelation,
  ids: readonly unknown[],
  session: AdapterSession,
): Promise<void> {
  const peer = call.entity.peer(array.relation.target);
  const scope = ids.length === 0 ? undefined : await targetScope(call, array);
  if (!peer || !scope) return;
  const key = array.targetKey.property;
  const { rows } = await peer.adapter.findMany({
    where: andFilters(scope, { kind: 'condition', field: key, operator: 'in', value: ids }),
    sort: [],
    count: false,
    view: 'all',
    session,
  });
  const found = new Set(rows.map((row) => String(row[key])));
  const missing = ids.filter((id) => !found.has(String(id)));
  if (missing.length > 0) {
    throw new UnresolvedRelationException(
      `${array.relation.property}: no ${array.relation.targetName} with ${key} ${missing.map((id) => JSON.stringify(id)).join(', ')}. Use ids that exist.`,
    );
  }
}

/** The target entity's own `filter.apply` for this caller, when the target is served and scoped. */
async function targetScope(call: OperationCall, array: MemberRelation) {
  const peer = call.entity.peer(array.relation.target);
  return peer ? scopeOf(call, peer) : undefined;
}

function memberKey(array: ArrayRelation, row: Row): string {
  return String(row[array.targetKey.property]);
}

/** A member key kept as text for the diff, back to the key's kind for the adapter. */
function coerceKey(array: ArrayRelation, id: unknown): unknown {
  const checked = checkColumnValue({ ...array.targetKey, nullable: false }, id);
  return checked.ok ? checked.value : id;
}

/** The members of a to-many relation the caller sees: inside the target's scope for this call, and live. */
export async function memberRows(
  call: OperationCall,
  array: MemberRelation,
  key: EntityKey,
  session?: AdapterSession,
): Promise<Row[]> {
  const where = await targetScope(call, array);
  const [members] = await call.entity.adapter.loadRelation!({
    relation: array.relation.property,
    parents: [key as Row],
    view: 'live',
    where,
    session,
  });
  return (members as Row[] | null) ?? [];
}

/**
 * refuseQuery: the members are served whole; no query parameter is taken, so none is silently ignored. It reads the
 * query, after the id, so it runs in the input phase.
 */
export const refuseQueryStage = stage('refuseQuery', { phase: 'input' }, (call) => {
  const query = call.request.query;
  const params = Array.isArray(query) ? query.map(([name]) => name) : Object.keys(query ?? {});
  if (params.length === 0) return;
  const property = relationWriteOf(call).relation;
  const errors = new QueryErrors();
  for (const name of new Set(params))
    errors.unsupportedParam(name, `${name} is not taken here: ${property} members are listed whole.`);
  errors.throwIfAny();
});

/** output: the members of the row read, each projected through its own entity's config when it is served. */
export const membersOutputStage = stage(
  'output',
  { phase: 'respond', needs: ['row'], gives: ['response'] },
  async (call, state) => {
    const array = arrayOf(call, relationWriteOf(call).relation);
    const rows = await memberRows(call, array, primaryKeyOf(call, state.row));
    const peer = call.entity.peer(array.relation.target);
    const items = peer
      ? rows.map((row) => projectRow(row, peer.output))
      : rows.map((row) => projectRow(row, { fields: Object.keys(row) }));
    state.response = { status: 200, body: { items, limit: items.length, offset: 0, total: items.length }, headers: {} };
  },
);
