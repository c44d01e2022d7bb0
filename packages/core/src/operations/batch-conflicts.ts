/**
 * Names what a batch's unique violation refused. The database names the violated unique set at best, never the row of
 * a multi-row statement, so once the batch has rolled back, the items whose values of that set repeat an earlier
 * item's or a stored row's are found (the stored ones by one bound read per chunk), and the 409 names each field as
 * `[3].isbn`; `updateMany` names the fields of its one patch body. Where none is found, the database's 409 stands.
 */
import { ConflictException, type SvcErrorItem } from '../errors/svc-exception';
import type { ColumnKind } from '../persistence/entity-metadata';
import type { Row } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import type { FlowState, PlannedRowWrite, Stage } from '../pipeline/stage';
import { chunked, comparable, keyString, matchingTarget, READ_CHUNK } from './batch-rows';

/** What a unique violation names in a call, or undefined when it cannot tell. */
export type ConflictNamer = (
  call: OperationCall,
  state: FlowState,
  conflict: ConflictException,
) => Promise<ConflictException | undefined>;

/**
 * `inner` (a batch's transaction), with a unique violation it fails with named by `name` once the transaction has
 * rolled back, so nothing the batch wrote is seen or kept. A failure to name it (a read that fails) leaves the
 * database's own 409.
 */
export function withConflictsNamed(inner: Stage, name: ConflictNamer): Stage {
  return {
    name: 'nameConflicts',
    phase: inner.phase,
    needs: [],
    gives: [],
    inner: [inner],
    innerGives: 'all',
    run: async (call, state) => {
      try {
        await inner.run(call, state);
      } catch (error) {
        if (!(error instanceof ConflictException) || error.unique === undefined) throw error;
        throw (await name(call, state, error).catch(() => undefined)) ?? error;
      }
    },
  };
}

/** A unique column set and each column's kind, by which its values compare. */
interface UniqueSet {
  readonly fields: readonly string[];
  readonly kinds: readonly ColumnKind[];
}

/** One item a violation names: its index, and the earlier item it repeats (none: a stored row holds its values). */
interface Clash {
  readonly index: number;
  readonly earlier?: number;
}

/**
 * createMany: each planned row that sets a field of the violated set is compared with the rows planned before it and
 * with the stored rows holding the same values (every row, whatever its tenant or soft-delete marker, as the unique
 * index holds them all; a matched row's own values are no clash). The later of two items is named.
 */
export const itemsInConflict: ConflictNamer = async (call, state, conflict) => {
  const planned = state.planned;
  if (!planned) return undefined;
  const clashes = new Map<number, SvcErrorItem[]>();
  for (const set of uniqueSets(call, conflict)) {
    const writers = planned.filter((row) => writesSet(row, set.fields));
    if (writers.length === 0) continue;
    const stored = await storedHolders(call, set.fields, writers);
    // A collation may see two values as one that compare apart here (MariaDB's ignores case and trailing spaces).
    const found = clashesOf(call, set, writers, stored, false);
    for (const clash of found.length > 0 ? found : clashesOf(call, set, writers, stored, true)) {
      const detail = clashDetail(call.entity.name, set.fields, clash);
      const errors = clashes.get(clash.index) ?? [];
      for (const field of set.fields) errors.push({ field: `[${clash.index}].${field}`, code: 'duplicate', detail });
      clashes.set(clash.index, errors);
    }
  }
  if (clashes.size === 0) return undefined;
  const indices = [...clashes.keys()].sort((a, b) => a - b);
  const first = clashes.get(indices[0]!)![0]!;
  const others = indices.length - 1;
  const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'item' : 'items'})` : '';
  return new ConflictException(`Item [${indices[0]}]: ${first.detail}${more} Nothing was written.`, conflict.cause, {
    unique: conflict.unique!,
    errors: indices.flatMap((index) => clashes.get(index)!),
  });
};

/**
 * updateMany: the fields of the violated set that its one patch body sets, each named by its own path (`isbn`):
 * a set the patch gives whole to several rows repeats itself; otherwise a stored row holds the values.
 */
export const patchFieldsInConflict: ConflictNamer = (call, state, conflict) => {
  const { values, matched } = state;
  if (!values || !matched) return Promise.resolve(undefined);
  const entity = call.entity.name;
  const errors: SvcErrorItem[] = [];
  for (const { fields } of uniqueSets(call, conflict)) {
    const sent = fields.filter((field) => Object.hasOwn(values, field));
    if (sent.length === 0) continue;
    const what = describe(fields);
    const detail =
      sent.length < fields.length
        ? `Setting ${sent.join(', ')} would give a matched ${entity} the ${fields.join(', ')} another ${entity} has. Use a different value, or narrow the filter.`
        : matched.length > 1
          ? `Setting ${sent.join(', ')} on the ${matched.length} matched ${entity} rows would give them all one ${what}, which one row at most may hold. Narrow the filter to one row, or set it row by row.`
          : `Another ${entity} already has this ${what}. Use a different value, or update that ${entity} instead.`;
    for (const field of sent) errors.push({ field, code: 'duplicate', detail });
  }
  if (errors.length === 0) return Promise.resolve(undefined);
  return Promise.resolve(
    new ConflictException(`${errors[0]!.detail} Nothing was written.`, conflict.cause, {
      unique: conflict.unique!,
      errors,
    }),
  );
};

/**
 * The unique sets to trace: the one the database named, else (it named none, or columns Svc does not know) every set
 * the entity keeps unique, the primary key included. Only sets of plain columns: the others hold no item value.
 */
function uniqueSets(call: OperationCall, conflict: ConflictException): UniqueSet[] {
  const { metadata } = call.entity;
  const columns = new Map(metadata.columns.map((column) => [column.property, column]));
  const plain = (fields: readonly string[]) =>
    fields.length > 0 &&
    fields.every((field) => {
      const column = columns.get(field);
      return column !== undefined && !column.virtual && !column.embedded;
    });
  const named = conflict.unique ?? [];
  const sets = plain(named) ? [named] : [metadata.primaryKeys, ...(metadata.uniques ?? [])].filter(plain);
  return sets.map((fields) => ({ fields, kinds: fields.map((field) => columns.get(field)!.kind) }));
}

/** The row sets a field of the set, and holds a value for every one (a unique index never holds two nulls equal). */
function writesSet(row: PlannedRowWrite, fields: readonly string[]): boolean {
  return (
    fields.some((field) => row.sets.includes(field)) &&
    fields.every((field) => row.values[field] !== undefined && row.values[field] !== null)
  );
}

/** The stored rows whose values of `fields` equal a writer's, read outside any scope or view. */
async function storedHolders(
  call: OperationCall,
  fields: readonly string[],
  writers: readonly PlannedRowWrite[],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const chunk of chunked(writers, READ_CHUNK)) {
    const where = matchingTarget(
      fields,
      chunk.map(({ values }) => values),
    );
    rows.push(...(await call.entity.adapter.findMany({ where, sort: [], count: false, view: 'all' })).rows);
  }
  return rows;
}

/** The writers that repeat an earlier writer's values of the set, or a stored row's other than their own. */
function clashesOf(
  call: OperationCall,
  set: UniqueSet,
  writers: readonly PlannedRowWrite[],
  stored: readonly Row[],
  folded: boolean,
): Clash[] {
  const signature = (values: Row) =>
    JSON.stringify(
      set.fields.map((field, at) => {
        const text = comparable(set.kinds[at], values[field]);
        return folded && set.kinds[at] === 'string' ? text.toLowerCase().trimEnd() : text;
      }),
    );
  const holders = new Map<string, string[]>();
  for (const row of stored) {
    const keys = holders.get(signature(row)) ?? [];
    keys.push(keyString(call, row));
    holders.set(signature(row), keys);
  }
  const first = new Map<string, number>();
  const clashes: Clash[] = [];
  for (const writer of writers) {
    const values = signature(writer.values);
    const earlier = first.get(values);
    if (earlier !== undefined) {
      clashes.push({ index: writer.index, earlier });
      continue;
    }
    first.set(values, writer.index);
    const own = writer.key ? keyString(call, writer.key) : undefined;
    if ((holders.get(values) ?? []).some((key) => key !== own)) clashes.push({ index: writer.index });
  }
  return clashes;
}

function clashDetail(entity: string, fields: readonly string[], clash: Clash): string {
  const what = describe(fields);
  if (clash.earlier !== undefined) {
    return `has the ${what} of item [${clash.earlier}] too. Give each item its own value.`;
  }
  return `Another ${entity} already has this ${what}. Use a different value, or update that ${entity} instead.`;
}

/** `isbn`, or `combination of shelf, position`. */
function describe(fields: readonly string[]): string {
  return fields.length === 1 ? fields[0]! : `combination of ${fields.join(', ')}`;
}
