/**
 * `PATCH /:id` with an RFC 6902 array (`application/json-patch+json`) on an entity with a `jsonPatch` relation:
 * `add`, `remove`, `replace` and `test` on `/<field>`, and on `/<relation>/-` (attach) and `/<relation>/<memberId>`
 * (detach, or test membership). The whole document applies in one transaction or not at all.
 */
import type { ArrayRelation } from '../config/array-relations';
import { ConflictException, ValidationFailedException, type SvcErrorItem } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import type { ResolvedEntity } from '../entity/resolved-entity';
import { stage } from '../pipeline/stage';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';

import { canonicalJson } from '../cache/etag';
import { projectRow } from '../schema/output-projection';
import { readBody } from '../schema/validate-body';
import {
  applyMembers,
  memberRows,
  notAMember,
  readMemberIds,
  requireFewMembers,
  requireWritable,
  type MemberChange,
} from './relation-writes';
import { changedFields } from '../pipeline/write-outcome';

interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'test';
  readonly path: string;
  readonly value?: unknown;
}

const OPS = ['add', 'remove', 'replace', 'test'];

/** True when this entity takes JSON Patch documents on PATCH /:id. */
export function takesJsonPatch(entity: ResolvedEntity): boolean {
  for (const array of entity.arrayRelations.values()) if (array.strategy === 'jsonPatch') return true;
  return false;
}

/**
 * document: the body read as an RFC 6902 document (each malformed operation named by its index). The policy is given
 * what it writes, shaped as a PATCH body (`writesOf`), so a policy that looks at the fields a body sets holds for a
 * document too.
 */
export const patchDocumentStage = stage('document', { phase: 'input', gives: ['work', 'body'] }, (call, state) => {
  const document = readDocument(call.request.body);
  state.work = document;
  state.body = writesOf(call, document);
});

/**
 * What a document writes, as the policy's `body`: each field it adds or replaces with its last value, a removed field
 * as null, and each jsonPatch relation it touches as `{ add: [values], remove: [member ids] }`. `test` operations
 * write nothing. Paths the document cannot take are left to the apply step, which refuses them.
 */
function writesOf(call: OperationCall, document: readonly PatchOperation[]): Record<string, unknown> {
  const writes: Record<string, unknown> = {};
  // Own properties only: a field named `__proto__` stays a field.
  const put = (name: string, value: unknown) =>
    Object.defineProperty(writes, name, { value, enumerable: true, writable: true, configurable: true });
  for (const [index, operation] of document.entries()) {
    if (operation.op === 'test') continue;
    const [head = '', ...rest] = pointer(operation.path, index);
    if (call.entity.arrayRelations.get(head)?.strategy === 'jsonPatch' && rest.length === 1) {
      const members = (Object.hasOwn(writes, head) ? writes[head] : undefined) as
        { add: unknown[]; remove: unknown[] } | undefined;
      const change = members ?? { add: [], remove: [] };
      if (!members) put(head, change);
      if (operation.op === 'remove') change.remove.push(rest[0]);
      else change.add.push(...(Array.isArray(operation.value) ? operation.value : [operation.value]));
    } else if (rest.length === 0) {
      put(head, operation.op === 'remove' ? null : operation.value);
    }
  }
  return writes;
}

/**
 * apply: the document applied, in order, to the row the guard locked: `test` against the item representation, field
 * operations collected into one update, member operations into one change per relation.
 */
export const applyPatchStage = stage(
  'apply',
  { phase: 'act', needs: ['work', 'key', 'session', 'before'], gives: ['changed', 'touches'] },
  async (call, state) => {
    const document = state.work as PatchOperation[];
    const { key, session } = state;
    // `test` sees what a client may read (the item representation), never a column select.fields hides.
    const current = projectRow(state.before, call.entity.output);
    const fields: Row = {};
    const changes = new Map<ArrayRelation, { add: unknown[]; remove: unknown[]; members: Set<string> }>();
    for (const [index, operation] of document.entries()) {
      const [head = '', ...rest] = pointer(operation.path, index);
      const array = call.entity.arrayRelations.get(head);
      if (array?.strategy === 'jsonPatch') {
        requireWritable(call, head);
        let change = changes.get(array);
        if (!change) {
          const members = (await memberRows(call, array, key, session)).map((member) =>
            String(member[array.targetKey.property]),
          );
          change = { add: [], remove: [], members: new Set(members) };
          changes.set(array, change);
        }
        memberOperation(call, array, operation, rest, index, change);
      } else if (rest.length === 0 && fieldPathTaken(call, operation, head, current)) {
        fieldOperation(operation, head, index, current, fields);
      } else {
        const code = operation.op === 'test' || rest.length > 0 ? 'invalid_value' : 'not_writable';
        throw invalid(index, operation.path, fieldPathProblem(call, operation, head, current), code);
      }
    }
    if (Object.keys(fields).length > 0) {
      const values = await readBody(call.operation.input ?? call.entity.input.patch, fields);
      await requireReferencesInScope(call, values, session);
      await call.entity.adapter.update(key, values, { session });
    }
    const moved: ArrayRelation[] = [];
    for (const [array, change] of changes) {
      const applied: MemberChange = { add: change.add, remove: change.remove };
      if (await applyMembers(call, array, key, applied, session)) moved.push(array);
    }
    state.row = null;
    state.changed = moved.map((array) => array.relation.property);
    state.touches = moved.map((array) => array.relation.targetName);
  },
);

/** changed: the served fields that differ between the row before and after, and the relations whose members moved. */
export const patchChangedStage = stage(
  'changed',
  { phase: 'record', needs: ['before', 'row'], gives: ['changed'] },
  (call, state) => {
    const seen = (row: Row) => projectRow(row, call.entity.output);
    state.changed = [...changedFields(seen(state.before), seen(state.row)), ...(state.changed ?? [])];
  },
);

/**
 * A field path names an own field, never the prototype chain: `test` reads a served field, and add, replace and
 * remove write a field the patch slot lets clients write.
 */
function fieldPathTaken(call: OperationCall, operation: PatchOperation, head: string, state: Row): boolean {
  if (operation.op === 'test') return Object.hasOwn(state, head);
  return (call.operation.input ?? call.entity.input.patch).fields.has(head);
}

function fieldPathProblem(call: OperationCall, operation: PatchOperation, head: string, state: Row): string {
  const served = Object.hasOwn(state, head);
  if (operation.op !== 'test' && served) return `names a field that is not writable here (${operation.op} on it).`;
  const relation = call.entity.arrayRelations.get(head);
  if (relation) return `names relation '${head}', whose write.strategy is '${relation.strategy}', not 'jsonPatch'.`;
  return `is not a field or a '/<relation>/...' path of a jsonPatch relation.`;
}

function readDocument(body: unknown): PatchOperation[] {
  if (!Array.isArray(body) || body.length === 0)
    throw new ValidationFailedException([], 'A JSON Patch is a non-empty array of operations.');
  const errors: SvcErrorItem[] = [];
  body.forEach((operation: unknown, index) => {
    const op = operation as Partial<PatchOperation> | null;
    if (!op || typeof op !== 'object' || !OPS.includes(op.op as string) || typeof op.path !== 'string') {
      errors.push({
        field: `/${index}`,
        code: 'invalid_value',
        detail: `operation ${index} must be { op, path[, value] } with op ${OPS.join(', ')} (move and copy are not taken).`,
      });
    } else if (op.op !== 'remove' && !('value' in op)) {
      errors.push({
        field: `/${index}/value`,
        code: 'required',
        detail: `operation ${index} (${op.op}) needs a value.`,
      });
    }
  });
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return body as PatchOperation[];
}

/** RFC 6901: `/a/b` → ['a', 'b'], with `~1` → `/` and `~0` → `~`. */
function pointer(path: string, index: number): string[] {
  if (!path.startsWith('/')) throw invalid(index, path, 'must start with /.');
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function fieldOperation(operation: PatchOperation, field: string, index: number, state: Row, fields: Row): void {
  switch (operation.op) {
    case 'test':
      if (canonicalJson(state[field] ?? null) !== canonicalJson(operation.value ?? null))
        throw new ConflictException(`The JSON Patch test at ${operation.path} (operation ${index}) failed.`);
      return;
    case 'remove':
      fields[field] = null;
      state[field] = null;
      return;
    default:
      fields[field] = operation.value;
      state[field] = operation.value;
  }
}

function memberOperation(
  call: OperationCall,
  array: ArrayRelation,
  operation: PatchOperation,
  rest: readonly string[],
  index: number,
  change: { add: unknown[]; remove: unknown[]; members: Set<string> },
): void {
  const [member] = rest;
  if (rest.length !== 1 || member === undefined || member === '')
    throw invalid(index, operation.path, `must be /${array.relation.property}/- or /${array.relation.property}/<id>.`);
  if (operation.op === 'add' && member === '-') {
    const ids = readMemberIds(array, operation.value);
    // Across the whole document, as if the ids came in one request.
    requireFewMembers(array, change.add.length + ids.length);
    for (const id of ids) {
      // Attaching what this document detached earlier cancels the detach.
      const undone = change.remove.findIndex((removed) => String(removed) === String(id));
      if (undone >= 0) change.remove.splice(undone, 1);
      else change.add.push(id);
      change.members.add(String(id));
    }
    return;
  }
  if (member === '-' || operation.op === 'add' || operation.op === 'replace')
    throw invalid(index, operation.path, `takes add on /-, and remove or test on /<id>.`);
  const [id] = readMemberIds(array, member);
  const present = change.members.has(String(id));
  if (operation.op === 'test') {
    if (!present) throw new ConflictException(`The JSON Patch test at ${operation.path} (operation ${index}) failed.`);
    return;
  }
  if (!present) throw notAMember(call, array, id);
  const undone = change.add.findIndex((added) => String(added) === String(id));
  if (undone >= 0) change.add.splice(undone, 1);
  else change.remove.push(id);
  change.members.delete(String(id));
}

function invalid(index: number, path: string, why: string, code = 'invalid_value'): ValidationFailedException {
  return new ValidationFailedException([{ field: `/${index}/path`, code, detail: `'${path}' ${why}` }]);
}
