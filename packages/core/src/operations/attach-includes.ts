/** Embeds included relations into projected items, one batched load per include node whatever the page size. */
import { computedSelectFor } from '../config/computed-fields';
import { ConfigurationException } from '../errors/configuration-exception';
import type { AdapterSession, RepositoryAdapter, Row } from '../persistence/repository-adapter';
import { visibleRows } from '../query/visible-rows';
import type { IncludeNode, IncludeTarget } from '../query/include-tree';
import { mayList, roleView } from '../query/related-reach';
import { QueryErrors } from '../errors/query-errors';
import { suggestion } from '../config/did-you-mean';
import { projectRow } from '../schema/output-projection';
import type { SvcContext } from '../config/svc-context';

export interface AttachArgs {
  readonly adapter: RepositoryAdapter;
  readonly entity: string;
  readonly context: SvcContext;
  readonly operation: string;
  readonly session?: AdapterSession;
  /** The surface that made the call: over REST, a `values` relation is served as one field of its rows. */
  readonly surface?: string;
}

/** Sets `items[i][node.name]` for every node; `rows[i]` is the row behind `items[i]`. */
export async function attachIncludes(
  nodes: readonly IncludeNode[],
  rows: readonly Row[],
  items: Record<string, unknown>[],
  args: AttachArgs,
): Promise<void> {
  if (nodes.length === 0 || rows.length === 0) return;
  const load = args.adapter.loadRelation?.bind(args.adapter);
  if (!load)
    throw new ConfigurationException({
      entity: args.entity,
      path: 'include',
      message: 'the repository adapter cannot load relations.',
    });
  for (const node of nodes) {
    const served = node.target;
    if (served && !(await mayList(served, args.context))) {
      // The target's policy refuses this caller its rows: the relation reads as empty.
      rows.forEach((_, index) => (items[index]![node.name] = node.relation.kind.endsWith('many') ? [] : null));
      continue;
    }
    const target = served && roleView(served, args.context);
    if (target && target !== served && node.select) refuseUnreadable(node, target);
    const where = target ? await visibleRows(target, args, args) : undefined;
    const view = target && !target.softDeleteOnReads ? 'all' : 'live';
    // A key-only load still answers null for a target outside `where` or the view (the adapter reads it then).
    const loaded = await load({
      relation: node.relation.property,
      parents: rows,
      keysOnly: node.strategy === 'key',
      where,
      view,
      session: args.session,
      ...(target && node.strategy !== 'key' ? { computed: computedSelectFor(target, args.context) } : {}),
    });
    let fields = node.strategy === 'key' ? undefined : (node.select ?? target?.select.fields);
    // A target no entity serves answers what TypeORM would load of it: every column of its rows (all alike) but its
    // hidden ones, worked out from the first row.
    const hidden = node.relation.hiddenTargetFields ?? [];
    const project = (row: Row) => {
      fields ??= Object.keys(row).filter((name) => !hidden.includes(name));
      return projectRow(row, { fields });
    };
    const childRows: Row[] = [];
    const childItems: Record<string, unknown>[] = [];
    loaded.forEach((value, index) => {
      const collect = (row: Row) => {
        const item = project(row);
        childRows.push(row);
        childItems.push(item);
        return item;
      };
      items[index]![node.name] = Array.isArray(value) ? value.map(collect) : value === null ? null : collect(value);
    });
    if (node.values !== undefined && args.surface === 'rest') {
      const field = node.values;
      rows.forEach((_, index) => {
        const members = items[index]![node.name];
        if (Array.isArray(members))
          items[index]![node.name] = members.map((member: Record<string, unknown>) => member[field]);
      });
      continue;
    }
    if (node.children.length > 0 && node.strategy !== 'key') {
      const childAdapter = target?.adapter;
      if (!childAdapter) continue;
      await attachIncludes(node.children, childRows, childItems, {
        ...args,
        adapter: childAdapter,
        entity: target.name,
      });
    }
  }
}

/** A `select[<path>]` naming a field the caller's role does not read there: refused as a field the target lacks. */
function refuseUnreadable(node: IncludeNode, target: IncludeTarget): void {
  const readable = target.select.fields;
  const errors = new QueryErrors();
  for (const name of node.select ?? []) {
    if (!readable.includes(name))
      errors.add(
        `select[${node.path}]`,
        'field_not_selectable',
        `'${name}' is not a selectable field.${suggestion(name, readable)}`,
      );
  }
  errors.throwIfAny();
}
