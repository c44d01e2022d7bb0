/**
 * Nested writes (`relations.<name>.write.nested`): a create or update body that creates, connects, connects-or-creates
 * or updates related rows under a relation's name. The whole body is read first (every nested row against its own
 * entity's write slot, `set`, access and policy, the depth and member limits), so nothing is written for a body with
 * any problem; errors name the path (`tags[2].create.name`). Then, in the parent's transaction, the to-one rows are
 * written before the parent (their keys are its foreign keys) and the to-many rows after it, a relation's members in
 * as few statements as the adapter allows, each row kept to its entity's scope, each write recording its own outcome.
 */
import { askPolicy } from '../config/ask-policy';
import { NESTED_FORMS, type NestedForm, type NestedRelation } from '../config/nested-writes';
import { isPlainObject } from '../config/validate-settings';
import { roleView } from '../query/related-reach';
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import { ConfigurationException } from '../errors/configuration-exception';
import {
  ConflictException,
  ForbiddenException,
  OperationDisabledException,
  SvcException,
  TransactionFailedException,
  UnresolvedRelationException,
  ValidationFailedException,
  type SvcErrorItem,
} from '../errors/svc-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { WriteOutcome } from '../pipeline/write-outcome';
import { liveView, scopeFilter } from '../pipeline/load-row';
import { memberRows } from './relation-writes';
import type { OperationCall } from '../pipeline/operation-call';
import { stage } from '../pipeline/stage';
import { recordOutcome } from '../pipeline/stages/outcome-stage';
import { requireReferencesInScope } from '../pipeline/stages/reference-stage';
import { rereadInScope } from '../pipeline/stages/reread-stage';
import { checkColumnValue } from '../schema/check-column-value';
import { readBody } from '../schema/validate-body';
import type { WriteSchema } from '../schema/write-schema';
import { bodyWithSet } from './body-with-set';
import { rereadAll } from './batch-rows';
import type { NestedGroup, NestedItem, NestedPlan } from '../pipeline/nested-plan';

export type { NestedPlan };

/** Collects a body's problems at their paths, to throw them together. */
class Problems {
  readonly items: SvcErrorItem[] = [];
  add(field: string, code: string, detail: string): void {
    this.items.push({ field, code, detail });
  }
  /** Runs `work`, keeping a refusal of a nested row's own rules under that row's path. */
  async at<T>(path: string, work: () => Promise<T> | T): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ValidationFailedException && error.errors?.length) {
        for (const item of error.errors) this.add(`${path}.${item.field ?? item.param ?? ''}`, item.code, item.detail);
        return undefined;
      }
      if (error instanceof SvcException && error.status === 400) {
        this.add(path, 'invalid_value', error.detail);
        return undefined;
      }
      throw error;
    }
  }
}

/**
 * Takes the nested forms out of a create or update body: the body the parent's slot reads, and the plan of what its
 * relations write. A body with none answers no plan, so a write without nested forms runs as before.
 */
export async function readNested(
  call: OperationCall,
  slot: 'create' | 'update',
  body: unknown,
): Promise<{ body: unknown; plan?: NestedPlan }> {
  if (call.entity.nested.size === 0 || !isPlainObject(body)) return { body };
  if (![...call.entity.nested.keys()].some((name) => Object.hasOwn(body, name))) return { body };
  const problems = new Problems();
  // The nested rows' writes record their outcomes here, until the transaction commits.
  const pending: WriteOutcome[] = [];
  const schema =
    call.operation.input ?? call.entity.input[call.operation.facts?.takes.body === 'patch' ? 'patch' : slot];
  const read = await readBodyNested({ ...call, outcomes: pending }, call.entity, slot, schema, body, '', 1, problems);
  if (problems.items.length > 0) throw new ValidationFailedException(problems.items);
  return read.plan ? { body: read.body, plan: { ...read.plan, pending } } : read;
}

async function readBodyNested(
  call: OperationCall,
  entity: ResolvedEntity,
  slot: 'create' | 'update',
  schema: WriteSchema,
  body: Record<string, unknown>,
  prefix: string,
  depth: number,
  problems: Problems,
): Promise<{ body: Record<string, unknown>; plan?: NestedPlan }> {
  const rest: Record<string, unknown> = { ...body };
  const toOne: NestedGroup[] = [];
  const toMany: NestedGroup[] = [];
  for (const [name, nested] of entity.nested) {
    if (!Object.hasOwn(body, name)) continue;
    const value = body[name];
    const path = `${prefix}${name}`;
    // A to-one relation also takes a plain reference ({ id: 7 }, or null): that stays the slot's to read.
    if (!nested.toMany && !isNestedForm(value)) continue;
    delete rest[name];
    if (!writableBy(entity, slot, name) || (!nested.toMany && !takesReference(schema, nested))) {
      problems.add(path, 'not_writable', `'${name}' is not a writable field here.`);
      continue;
    }
    if (depth > nested.maxDepth) {
      problems.add(path, 'too_deep', `nests deeper than relations.${name}.write.maxDepth (${nested.maxDepth}) allows.`);
      continue;
    }
    // A list of one field's values (`tagList: ['a', 'b']`): each a connectOrCreate by it, the list replacing members.
    const byValues = nested.values !== undefined && Array.isArray(value) && !value.some(isPlainObject);
    // A value named twice is one member.
    const forms = byValues
      ? [...new Set(value as unknown[])].map((one) => ({
          connectOrCreate: { where: { [nested.values!]: one }, create: {} },
        }))
      : nested.toMany
        ? value
        : [value];
    if (!Array.isArray(forms)) {
      problems.add(path, 'invalid_value', `must be an array of { ${formList(nested)} }.`);
      continue;
    }
    if (forms.length > nested.maxMembers) {
      problems.add(
        path,
        'too_many_members',
        `names ${forms.length} members; one request takes at most ${nested.maxMembers} (relations.${name}.write.maxMembers).`,
      );
      continue;
    }
    const target = targetOf(call, entity, nested);
    const items: NestedItem[] = [];
    for (const [index, form] of forms.entries()) {
      const at = nested.toMany ? `${path}[${index}]` : path;
      const item = await readItem(call, target, nested, form, at, depth, problems);
      if (item) items.push(item);
    }
    (nested.toMany ? toMany : toOne).push({ nested, items, ...(byValues ? { replace: true } : {}) });
  }
  const plan = toOne.length > 0 || toMany.length > 0 ? { toOne, toMany } : undefined;
  return { body: rest, ...(plan ? { plan } : {}) };
}

/** `{ create }`, `{ connect }`, `{ connectOrCreate }` or `{ update }`: one key, a nested form. */
function isNestedForm(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && NESTED_FORMS.includes(keys[0] as NestedForm);
}

function formList(nested: NestedRelation): string {
  return [...nested.forms].join(' | ');
}

/** A to-one nested form writes the row's reference: the slot must take it (the relation or its column). */
function takesReference(schema: WriteSchema, nested: NestedRelation): boolean {
  const relation = nested.relation;
  return (
    schema.fields.has(relation.property) ||
    relation.joinColumns.some((column) => column.property !== undefined && schema.fields.has(column.property))
  );
}

/** The caller's role may write the relation in this slot (`access`: a rule's field list names it). */
function writableBy(entity: ResolvedEntity, slot: 'create' | 'update', name: string): boolean {
  const allowed = entity.nestedWritable?.[slot];
  return allowed === undefined || allowed.has(name);
}

/** The related entity as this caller sees it: nested rows follow its own rules, so it must be served. */
function targetOf(call: OperationCall, entity: ResolvedEntity, nested: NestedRelation): ResolvedEntity {
  const served = entity.peer(nested.relation.target);
  if (!served) {
    throw new ConfigurationException({
      entity: entity.name,
      path: `relations.${nested.relation.property}.write.nested`,
      message: `needs ${nested.relation.targetName} served by Svc (a controller or service of its own), whose rules its nested rows follow.`,
    });
  }
  return roleView(served, call.context);
}

async function readItem(
  call: OperationCall,
  target: ResolvedEntity,
  nested: NestedRelation,
  value: unknown,
  path: string,
  depth: number,
  problems: Problems,
): Promise<NestedItem | undefined> {
  if (!isNestedForm(value)) {
    problems.add(path, 'invalid_value', `must be one of { ${formList(nested)} }.`);
    return undefined;
  }
  const form = Object.keys(value)[0] as NestedForm;
  const payload = value[form];
  const at = `${path}.${form}`;
  if (!nested.forms.has(form)) {
    problems.add(
      at,
      'not_allowed',
      `is not a nested form of '${nested.relation.property}'; it takes ${formList(nested)}.`,
    );
    return undefined;
  }
  const key = nested.targetKey.property;
  switch (form) {
    case 'create': {
      if (!isPlainObject(payload)) return void problems.add(at, 'invalid_value', 'must be an object of fields.');
      return readCreate(call, target, nested, payload, at, depth, problems, path);
    }
    case 'connect': {
      const id = readKey(nested, payload, at, problems);
      return id === undefined ? undefined : { path, form, call: targetCall(call, target, 'createOne'), key: id };
    }
    case 'connectOrCreate': {
      const where = isPlainObject(payload) ? payload['where'] : undefined;
      const create = isPlainObject(payload) ? payload['create'] : undefined;
      if (!isPlainObject(payload) || Object.keys(payload).some((name) => name !== 'where' && name !== 'create'))
        return void problems.add(at, 'invalid_value', 'must be { where: { ... }, create: { ... } }.');
      const match = readMatch(target, nested, where, `${at}.where`, problems);
      if (!match || !isPlainObject(create))
        return void (
          isPlainObject(create) || problems.add(`${at}.create`, 'invalid_value', 'must be an object of fields.')
        );
      for (const [field, value] of Object.entries(match)) {
        if (Object.hasOwn(create, field) && String(create[field]) !== String(value))
          return void problems.add(`${at}.create.${field}`, 'conflict', `must equal where.${field}, or be left out.`);
      }
      const item = await readCreate(
        call,
        target,
        nested,
        { ...create, ...match },
        `${at}.create`,
        depth,
        problems,
        path,
      );
      return item && { ...item, form, match };
    }
    case 'update': {
      if (!isPlainObject(payload) || Object.keys(payload).some((name) => name !== 'where' && name !== 'data'))
        return void problems.add(at, 'invalid_value', `must be { where: { "${key}": id }, data: { ... } }.`);
      const id = readKey(nested, payload['where'], `${at}.where`, problems);
      const patchCall = targetCall(call, target, 'patchOne');
      const slot = patchCall.operation.input ?? target.input.patch;
      const values = await problems.at(`${at}.data`, () => readBody(slot, payload['data']));
      if (id === undefined || !values) return undefined;
      if (Object.keys(values).length === 0)
        return void problems.add(`${at}.data`, 'invalid_value', 'changes nothing; send at least one writable field.');
      return { path, form, call: patchCall, values, key: id };
    }
  }
}

/** A created row: its body read against the target's create slot and `set`, its own nested writes, its policy. */
async function readCreate(
  call: OperationCall,
  target: ResolvedEntity,
  nested: NestedRelation,
  payload: Record<string, unknown>,
  at: string,
  depth: number,
  problems: Problems,
  path: string,
): Promise<NestedItem | undefined> {
  const createCall = targetCall(call, target, 'createOne');
  const inverse = nested.inverse;
  if (inverse && Object.hasOwn(payload, inverse))
    return void problems.add(`${at}.${inverse}`, 'not_writable', `is set to the parent this row is created under.`);
  const slot = createCall.operation.input ?? target.input.create;
  const own = await readBodyNested(call, target, 'create', slot, payload, `${at}.`, depth + 1, problems);
  // A one-to-many member's relation back (and its column) is the parent's to set, not the body's.
  const back = inverse ? target.metadata.relations.find((relation) => relation.property === inverse) : undefined;
  const filled = back ? [back.property, ...back.joinColumns.flatMap((column) => column.property ?? [])] : [];
  for (const field of filled.slice(1))
    if (Object.hasOwn(payload, field))
      return void problems.add(`${at}.${field}`, 'not_writable', 'is set to the parent this row is created under.');
  const values = await problems.at(at, () =>
    bodyWithSet(createCall, 'create', createCall.operation.input ?? target.input.create, own.body, filled),
  );
  if (!values) return undefined;
  if (!(await askPolicy(createCall.operation.policy, { operation: 'createOne', body: payload, context: call.context })))
    throw new ForbiddenException('createOne', target.name, `${at}: you may not create this ${target.name}.`);
  return { path, form: 'create', call: createCall, values, ...(own.plan ? { nested: own.plan } : {}) };
}

/** A row's key as `connect` or `update.where` names it: `{ "<key>": value }`, checked by the key's kind. */
function readKey(nested: NestedRelation, value: unknown, at: string, problems: Problems): unknown {
  const key = nested.targetKey;
  const given = isPlainObject(value) && Object.keys(value).length === 1 ? value[key.property] : undefined;
  const checked =
    given === undefined || given === null ? undefined : checkColumnValue({ ...key, nullable: false }, given);
  if (checked?.ok) return checked.value;
  problems.add(at, 'invalid_value', `must be { "${key.property}": id }${checked ? `; it ${checked.reason}` : ''}.`);
  return undefined;
}

/** `connectOrCreate.where`: exactly the configured unique fields, each checked by its column's kind. */
function readMatch(
  target: ResolvedEntity,
  nested: NestedRelation,
  where: unknown,
  at: string,
  problems: Problems,
): Row | undefined {
  const fields = nested.matchBy ?? [];
  if (!isPlainObject(where) || Object.keys(where).sort().join(',') !== [...fields].sort().join(',')) {
    problems.add(at, 'invalid_value', `must name exactly ${fields.join(', ')}.`);
    return undefined;
  }
  const match: Row = {};
  for (const field of fields) {
    const column = target.metadata.columns.find((candidate) => candidate.property === field)!;
    const checked = checkColumnValue({ ...column, nullable: false }, where[field]);
    if (!checked.ok) problems.add(`${at}.${field}`, 'invalid_value', `'${field}' ${checked.reason}.`);
    else match[field] = checked.value;
  }
  return Object.keys(match).length === fields.length ? match : undefined;
}

/** The call of the target's own operation a nested row goes through; its outcomes are the parent call's. */
function targetCall(call: OperationCall, target: ResolvedEntity, id: 'createOne' | 'patchOne'): OperationCall {
  const operation: ResolvedOperation | undefined = target.operations.get(id);
  if (!operation || operation.state !== 'on') throw new OperationDisabledException(id, target.name);
  return {
    entity: target,
    operation,
    settings: operation.settings,
    request: { operation: id, surface: call.request.surface },
    context: call.context,
    outcomes: call.outcomes,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing, inside the parent's transaction
// ---------------------------------------------------------------------------------------------------------------

/** The to-one rows: written first, each key set as the parent's reference. */
export async function writeToOne(plan: NestedPlan, values: Row, session: AdapterSession): Promise<void> {
  for (const { nested, items } of plan.toOne) {
    const [item] = items;
    if (!item) continue;
    const [key] = await writeItems(nested, items, session);
    const relation = nested.relation;
    for (const column of relation.joinColumns) if (column.property) delete values[column.property];
    values[relation.property] = { [relation.joinColumns[0]!.referencedProperty]: key };
  }
}

/** The to-many rows: written after the parent, then attached to it where creating them did not. */
export async function writeToMany(
  call: OperationCall,
  plan: NestedPlan,
  parent: EntityKey,
  session: AdapterSession,
): Promise<string[]> {
  const touched: string[] = [];
  for (const { nested, items, replace } of plan.toMany) {
    if (items.length === 0 && !replace) continue;
    const keys = await writeItems(nested, items, session, nested.inverse ? { [nested.inverse]: parent } : undefined);
    // A member created with its relation back set is attached already; the others are attached here.
    const attach = keys.filter((_, index) => !(nested.inverse && items[index]!.form === 'create'));
    if (attach.length > 0 || replace) {
      const current = await call.entity.adapter.loadRelation!({
        relation: nested.relation.property,
        parents: [parent as Row],
        view: 'all',
        session,
      });
      const members = new Set(
        ((current[0] as Row[] | null) ?? []).map((row) => String(row[nested.targetKey.property])),
      );
      const add = [...new Map(attach.map((key) => [String(key), key])).values()].filter(
        (key) => !members.has(String(key)),
      );
      // A list of values names every member the caller can see: the ones it leaves out are let go. Members outside
      // the target's scope for the caller, or soft-deleted, are not the caller's to remove, and stay.
      const kept = new Set(keys.map(String));
      const remove = replace
        ? await memberRows(call, nested, parent, session).then((rows) =>
            rows.map((row) => row[nested.targetKey.property]).filter((key) => !kept.has(String(key))),
          )
        : [];
      if (add.length > 0 || remove.length > 0)
        await call.entity.adapter.updateRelation!({
          relation: nested.relation.property,
          key: parent,
          add,
          remove,
          session,
        });
    }
    touched.push(nested.relation.targetName);
  }
  return touched;
}

/**
 * Writes one relation's rows in input order and answers their keys: the created rows of a level in one multi-row
 * insert where none nests writes of its own, every connected or matched row found with one read.
 */
async function writeItems(
  nested: NestedRelation,
  items: readonly NestedItem[],
  session: AdapterSession,
  parentRef?: Row,
): Promise<unknown[]> {
  const keys: unknown[] = new Array(items.length);
  const keyField = nested.targetKey.property;
  const connects = items.flatMap((item, index) => (item.form === 'connect' || item.form === 'update' ? [index] : []));
  if (connects.length > 0) {
    const found = await findInScope(
      items[connects[0]!]!.call,
      keyField,
      connects.map((index) => items[index]!.key),
      session,
    );
    for (const index of connects) {
      const item = items[index]!;
      const row = found.get(String(item.key));
      if (!row) throw unresolvedAt(item, `no ${item.call.entity.name} with ${keyField} ${JSON.stringify(item.key)}`);
      keys[index] = item.key;
      if (item.form === 'update') await updateItem(item, row, session);
    }
  }
  const matches = items.flatMap((item, index) => (item.form === 'connectOrCreate' ? [index] : []));
  const toCreate = items.flatMap((item, index) => (item.form === 'create' ? [index] : []));
  if (matches.length > 0) {
    const call = items[matches[0]!]!.call;
    const found = await findMatches(
      call,
      matches.map((index) => items[index]!.match!),
      session,
    );
    for (const index of matches) {
      const row = found.get(signature(items[index]!.match!));
      if (row) keys[index] = row[keyField];
      else toCreate.push(index);
    }
  }
  if (toCreate.length > 0) {
    const created = await createItems(
      toCreate.map((index) => items[index]!),
      session,
      parentRef,
    ).catch((error: unknown) => {
      throw raced(error, matches.length > 0 ? items[matches[0]!]!.call : undefined);
    });
    toCreate.forEach((index, at) => (keys[index] = created[at]![keyField]));
  }
  return keys;
}

/** The calls whose transaction was retried once after a connect-or-create lost a race (by their outcomes list). */
const retried = new WeakSet<object>();

/**
 * A unique violation while creating a connect-or-create's row: another request may have created the same row since
 * it was looked up. The transaction is retried once, to find and connect that row; a second violation is the
 * conflict it is (a row the caller may not reach holds the value).
 */
function raced(error: unknown, call: OperationCall | undefined): unknown {
  if (!(error instanceof ConflictException) || !call || retried.has(call.outcomes)) return error;
  retried.add(call.outcomes);
  return new TransactionFailedException(error);
}

/** The rows with these key values inside the target's scope, locked, by key. */
async function findInScope(
  call: OperationCall,
  field: string,
  values: readonly unknown[],
  session: AdapterSession,
): Promise<Map<string, Row>> {
  const where: FilterNode = { kind: 'condition', field, operator: 'in', value: [...new Set(values)] };
  const { rows } = await call.entity.adapter.findMany({
    where: andFilters(await scopeFilter(call), where),
    sort: [],
    count: false,
    view: liveView(call),
    session,
    lock: true,
  });
  return new Map(rows.map((row) => [String(row[field]), row]));
}

/** The rows matching any of these unique values inside the target's scope, locked, by their values. */
async function findMatches(
  call: OperationCall,
  matches: readonly Row[],
  session: AdapterSession,
): Promise<Map<string, Row>> {
  const any: FilterNode = {
    kind: 'or',
    children: matches.map((match) => ({
      kind: 'and',
      children: Object.entries(match).map(([field, value]) => ({ kind: 'condition', field, operator: 'eq', value })),
    })),
  };
  const { rows } = await call.entity.adapter.findMany({
    where: andFilters(await scopeFilter(call), any),
    sort: [],
    count: false,
    view: liveView(call),
    session,
    lock: true,
  });
  const fields = Object.keys(matches[0]!);
  return new Map(rows.map((row) => [signature(Object.fromEntries(fields.map((field) => [field, row[field]]))), row]));
}

function signature(match: Row): string {
  return JSON.stringify(
    Object.keys(match)
      .sort()
      .map((field) => String(match[field])),
  );
}

/**
 * Creates the rows: each one's own to-one rows first, then the rows themselves (one multi-row insert for those that
 * nest nothing), each read back inside its entity's scope (a row that would fall outside it is refused), then each
 * one's own to-many rows; each records its `created` outcome. A unique value a row of another scope holds is a
 * conflict, never that row.
 */
async function createItems(items: readonly NestedItem[], session: AdapterSession, parentRef?: Row): Promise<Row[]> {
  const rows: Row[] = [];
  const call = items[0]!.call;
  const values = items.map((item) => ({ ...item.values!, ...parentRef }));
  for (const [index, item] of items.entries()) if (item.nested) await writeToOne(item.nested, values[index]!, session);
  // The references the body sent: those the write sets itself (the parent, a nested row) are in scope already.
  for (const item of items) {
    await requireReferencesInScope(item.call, item.values!, session).catch((error: unknown) => {
      throw error instanceof SvcException ? at(item, error) : error;
    });
  }
  const written = await insertAll(call, values, session, items);
  // Read back in one statement per chunk, inside the target's scope: a row that would fall outside it is refused.
  const returned = new Map(written.flatMap((row, index) => (row.row ? [[index, row.row] as const] : [])));
  const stored = await rereadAll(
    call,
    written.map((row) => row.key),
    session,
    returned,
  ).catch((error: unknown) => {
    throw error instanceof SvcException ? at(items[0]!, error) : error;
  });
  for (const [index, item] of items.entries()) {
    const row = stored[index]!;
    if (item.nested) await writeToMany(item.call, item.nested, written[index]!.key, session);
    recordOutcome(item.call, {
      event: 'created',
      key: written[index]!.key,
      before: null,
      after: row,
      settings: item.call.settings,
    });
    rows.push(row);
  }
  return rows;
}

async function insertAll(
  call: OperationCall,
  values: readonly Row[],
  session: AdapterSession,
  items: readonly NestedItem[],
) {
  try {
    if (values.length === 1) return [await call.entity.adapter.insert(values[0]!, { session })];
    return await call.entity.adapter.insertMany(values, { session });
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
    // Which member's value the database refused, where it can tell: the first path of the relation otherwise.
    throw new ConflictException(
      `${items[0]!.path}: ${error.detail}`,
      error,
      error.unique ? { unique: error.unique } : {},
    );
  }
}

/** `update`: the connected row changed as a patch of it would be, its policy asked with the row. */
async function updateItem(item: NestedItem, before: Row, session: AdapterSession): Promise<void> {
  const { call } = item;
  const allowed = await askPolicy(call.operation.policy, {
    operation: 'patchOne',
    entity: before,
    params: { id: item.key },
    body: item.values,
    context: call.context,
  });
  if (!allowed)
    throw new ForbiddenException(
      'patchOne',
      call.entity.name,
      `${item.path}.update: you may not change this ${call.entity.name}.`,
    );
  await requireReferencesInScope(call, item.values!, session);
  const key = { [item.call.entity.metadata.primaryKeys[0]!]: item.key };
  const stored = await call.entity.adapter.update(key, item.values!, { session });
  const after = await rereadInScope(call, key, session, stored ?? undefined).catch((error: unknown) => {
    throw error instanceof SvcException ? at(item, error) : error;
  });
  recordOutcome(call, { event: 'patched', key, before, after, settings: call.settings });
}

function unresolvedAt(item: NestedItem, detail: string): UnresolvedRelationException {
  return new UnresolvedRelationException(`${item.path}.${item.form}: ${detail}. Use ids that exist.`);
}

/** A nested row's refusal, its detail led by the row's path. */
function at(item: NestedItem, error: SvcException): SvcException {
  if (error instanceof ForbiddenException)
    return new ForbiddenException(item.call.operation.id, item.call.entity.name, `${item.path}: ${error.detail}`);
  if (error instanceof UnresolvedRelationException)
    return new UnresolvedRelationException(`${item.path}.${item.form}: ${error.detail}`, error);
  return error;
}

/** nestedToOne: the body's to-one nested rows, written in the transaction before the row that references them. */
export const nestedToOneStage = stage(
  'nestedToOne',
  { phase: 'act', needs: ['values', 'session'] },
  async (_call, state) => {
    if (!state.nested) return;
    // A retried attempt starts with nothing written.
    state.nested.pending!.length = 0;
    await writeToOne(state.nested, state.values, state.session);
  },
);

/** nestedToMany: the body's to-many nested rows, written after the row and attached to it. */
export const nestedToManyStage = stage(
  'nestedToMany',
  { phase: 'act', needs: ['key', 'session'] },
  async (call, state) => {
    if (!state.nested) return;
    const touched = await writeToMany(call, state.nested, state.key, state.session);
    if (touched.length > 0) {
      state.changed = state.changed
        ? [...new Set([...state.changed, ...state.nested.toMany.map((group) => group.nested.relation.property)])]
        : undefined;
      state.touches = [...new Set([...(state.touches ?? []), ...touched])];
    }
  },
);
