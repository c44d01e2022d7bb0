/**
 * The conditions and sort keys a client named (its `filter`, its `sort`), told from those the server adds (a search
 * term's conditions, `filter.default`, `filter.apply`, `sort.default`, `sort.apply`): a relation path into a field the
 * caller's role may not read there is the client's 400 when the client named it, and matches or orders nothing when
 * the server did (a role's reads must not fail for what its config says).
 */
import type { FilterNode, SortKey } from '../persistence/query-ast';

const named = new WeakSet<object>();

/** Marks every condition of the client's filter. */
export function markClientFilter(node: FilterNode | undefined): void {
  if (!node) return;
  if (node.kind === 'condition') named.add(node);
  else if (node.kind === 'not') markClientFilter(node.child);
  else for (const child of node.children) markClientFilter(child);
}

export function markClientSort(keys: readonly SortKey[]): void {
  for (const key of keys) named.add(key);
}

export function clientNamed(node: object): boolean {
  return named.has(node);
}
