/**
 * `context.repository.loadRelation` for handlers: parents outside the entity's own `filter.apply` load nothing, targets
 * outside the target entity's `filter.apply` are left out, and target rows carry only the target's `select.fields`.
 */
import type { Row, LoadRelationArgs, RepositoryAdapter } from '../persistence/repository-adapter';
import type { OperationCall } from '../pipeline/operation-call';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import { scopeOf } from '../pipeline/load-row';

type Loaded = Row | Row[] | null;

export async function scopedLoadRelation(
  call: OperationCall,
  args: LoadRelationArgs,
  parentScope: FilterNode | undefined,
): Promise<Loaded[]> {
  const adapter = call.entity.adapter;
  const relation = call.entity.metadata.relations.find((candidate) => candidate.property === args.relation);
  const toMany = relation?.kind === 'one-to-many' || relation?.kind === 'many-to-many';
  const visible = parentScope ? await parentsInScope(adapter, args, parentScope) : args.parents.map(() => true);
  const parents = args.parents.filter((_, index) => visible[index]);
  const peer = relation ? call.entity.peer(relation.target) : undefined;
  const targetScope = peer ? await scopeOf(call, peer) : undefined;
  // A key-only load answers null for a target outside the scope: the adapter reads the target when `where` is set.
  const loaded =
    parents.length === 0
      ? []
      : await adapter.loadRelation!({ ...args, parents, where: andFilters(targetScope, args.where) });
  const narrow = (row: Row): Row => {
    if (args.keysOnly) return pick(row, peer?.metadata.primaryKeys ?? Object.keys(row));
    return peer ? pick(row, peer.select.fields) : row;
  };
  let next = 0;
  return visible.map((inScope) => {
    if (!inScope) return toMany ? [] : null;
    const value = loaded[next++] ?? null;
    if (Array.isArray(value)) return value.map(narrow);
    return value === null ? null : narrow(value);
  });
}

/** Which parents lie inside the entity's own scope, read by their keys in bounded chunks. */
async function parentsInScope(adapter: RepositoryAdapter, args: LoadRelationArgs, scope: FilterNode) {
  const keys = adapter.metadata.primaryKeys;
  const keyOf = (row: Row) => JSON.stringify(keys.map((key) => row[key] ?? null));
  const found = new Set<string>();
  for (let start = 0; start < args.parents.length; start += KEY_CHUNK) {
    const chunk = args.parents.slice(start, start + KEY_CHUNK);
    const { rows } = await adapter.findMany({
      where: andFilters(scope, keyFilter(keys, chunk)),
      sort: [],
      count: false,
      view: 'all',
      session: args.session,
    });
    for (const row of rows) found.add(keyOf(row));
  }
  return args.parents.map((parent) => found.has(keyOf(parent)));
}

/** Rows read by key at a time: well inside every database's bound-parameter and expression-depth limits. */
const KEY_CHUNK = 500;

/** `key IN (...)` for a single key; an OR of key tuples for a composite one. */
function keyFilter(keys: readonly string[], rows: readonly Row[]): FilterNode {
  if (keys.length === 1)
    return { kind: 'condition', field: keys[0]!, operator: 'in', value: rows.map((row) => row[keys[0]!] ?? null) };
  return {
    kind: 'or',
    children: rows.map((row) => ({
      kind: 'and',
      children: keys.map((key) => ({ kind: 'condition', field: key, operator: 'eq', value: row[key] ?? null })),
    })),
  };
}

function pick(row: Row, fields: readonly string[]): Row {
  const out: Row = {};
  for (const field of fields) if (Object.hasOwn(row, field)) out[field] = row[field];
  return out;
}
