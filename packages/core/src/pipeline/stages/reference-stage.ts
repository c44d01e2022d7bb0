/**
 * References by id must name rows the caller could read: a to-one reference (`authorId`, `{ author: { id } }`) to a
 * row outside the target entity's own `filter.apply` answers exactly like a reference to a missing row (422
 * SVC_UNRESOLVED_RELATION), so a write can neither link to another scope's rows nor learn which ids exist there.
 */
import type { ToOneReference } from '../../config/to-one-references';
import { UnresolvedRelationException } from '../../errors/svc-exception';
import type { AdapterSession, Row } from '../../persistence/repository-adapter';
import { andFilters, type FilterNode } from '../../persistence/query-ast';
import { scopeOf } from '../load-row';
import type { OperationCall } from '../operation-call';
import { stage } from '../stage';

/** Checks every to-one reference `values` writes against its target's scope, inside the write's transaction. */
export async function requireReferencesInScope(
  call: OperationCall,
  values: Row,
  session?: AdapterSession,
): Promise<void> {
  for (const reference of call.entity.references) {
    const target = referencedKey(reference, values);
    if (!target) continue;
    const peer = call.entity.peer(reference.relation.target);
    if (!peer?.filterApply) continue;
    const scope = await scopeOf(call, peer);
    if (!scope) continue;
    const conditions: FilterNode[] = Object.entries(target).map(([field, value]) => ({
      kind: 'condition',
      field,
      operator: 'eq',
      value,
    }));
    const { rows } = await peer.adapter.findMany({
      where: andFilters(scope, { kind: 'and', children: conditions }),
      sort: [],
      limit: 1,
      count: false,
      view: 'all',
      session,
    });
    if (rows.length === 0) throw unresolved(reference);
  }
}

/** True when `values` references a row of an entity that a `filter.apply` scopes (so the write must check it). */
export function referencesIntoScope(call: OperationCall, values: Row): boolean {
  return call.entity.references.some(
    (reference) =>
      referencedKey(reference, values) !== undefined && call.entity.peer(reference.relation.target)?.filterApply,
  );
}

/** The target key a write names for this relation, or undefined when it names none (or detaches with null). */
function referencedKey(reference: ToOneReference, values: Row): Row | undefined {
  const { relation, columns } = reference;
  if (Object.hasOwn(values, relation.property)) {
    const given = values[relation.property];
    if (given === null || given === undefined) return undefined;
    if (typeof given !== 'object') {
      return columns.length === 1 ? { [columns[0]!.referencedProperty]: given } : undefined;
    }
    const key: Row = {};
    for (const column of columns) {
      const value = (given as Row)[column.referencedProperty];
      if (value === null || value === undefined) return undefined;
      key[column.referencedProperty] = value;
    }
    return key;
  }
  const key: Row = {};
  for (const column of columns) {
    if (column.property === undefined || !Object.hasOwn(values, column.property)) return undefined;
    const value = values[column.property];
    if (value === null || value === undefined) return undefined;
    key[column.referencedProperty] = value;
  }
  return key;
}

/** Worded as the adapters word a foreign key that matches no row, so the two answers cannot be told apart. */
function unresolved(reference: ToOneReference): UnresolvedRelationException {
  const fields = reference.columns.map((column) => column.property ?? reference.relation.property);
  return new UnresolvedRelationException(
    `The row referenced by ${fields.join(', ')} does not exist. Check the id, or create the related row first.`,
  );
}

/** references: every to-one reference the write names is inside its target's scope (in the write's transaction). */
export const referencesStage = stage('references', { phase: 'guard', needs: ['values'] }, (call, state) =>
  requireReferencesInScope(call, state.values, state.session),
);
