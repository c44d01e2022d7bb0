/** Loads one relation for a page of parents with a fixed number of statements: one per hop, never one per parent. */
import { computedSelectSql, withComputedValues } from './computed-sql';
import type { OrmColumn, OrmRelation } from './orm-metadata';
import type { FilterNode, Row } from '@svc/core';
import type { LoadRelationArgs, RowView } from '@svc/core/spi';
import type { EntityManager } from 'typeorm';
import type { EntityTable, TableColumn } from './entity-table';
import { filterToSql, rowsOfSql, SqlParameters } from './filter-sql';
import { bindSql, rawRows } from './bound-sql';

const PARENT_ALIAS = 'svc_parent';
const TARGET_ALIAS = 'svc_target';

export interface RelationLoaderContext {
  readonly manager: EntityManager;
  readonly table: EntityTable;
  /** The precomputed table of another entity of the same DataSource. */
  readonly tableOf: (target: Function) => EntityTable;
}

type Loaded = (Row | Row[] | null)[];

export async function loadRelation(context: RelationLoaderContext, args: LoadRelationArgs): Promise<Loaded> {
  const relation = context.table.orm.findRelationWithPropertyPath(args.relation);
  if (!relation) throw new Error(`@svc/typeorm: '${args.relation}' is not a relation of ${context.table.name}.`);
  if (args.parents.length === 0) return [];
  if (relation.isManyToOne || relation.isOneToOneOwner) return loadOwningToOne(context, relation, args);
  if (relation.isOneToMany || relation.isOneToOneNotOwner) return loadInverse(context, relation, args);
  return loadManyToMany(context, relation, args);
}

/** The parent holds the foreign key: read it (from the row, or with one statement), then the targets by key. */
async function loadOwningToOne(
  context: RelationLoaderContext,
  relation: OrmRelation,
  args: LoadRelationArgs,
): Promise<Loaded> {
  const join = single(relation.joinColumns, relation);
  const referenced = join.referencedColumn!;
  const foreignKeys = await parentForeignKeys(context, join, args);
  const present = foreignKeys.filter((value) => value !== null && value !== undefined);
  const target = context.tableOf(relation.inverseEntityMetadata.target as Function);
  const keyOf = (value: unknown) => ({ [referenced.propertyPath]: value });
  // The foreign key names the target, but not whether it meets `where` or the view: only when nothing filters the
  // targets is it the answer without reading them.
  const filtered = args.where !== undefined || (target.marker !== undefined && args.view !== 'all');
  if (args.keysOnly && !filtered)
    return foreignKeys.map((value) => (value === null || value === undefined ? null : keyOf(value)));
  const targetColumn = target.requireColumn(referenced.propertyPath);
  const rows = present.length === 0 ? [] : await selectTargets(context, target, targetColumn, unique(present), args);
  const byKey = new Map(rows.map(({ row }) => [String(row[targetColumn.property]), row]));
  return foreignKeys.map((value) => {
    const row = value === null || value === undefined ? undefined : byKey.get(String(value));
    if (row === undefined) return null;
    return args.keysOnly ? keyOf(row[targetColumn.property]) : row;
  });
}

/** The target holds the foreign key: one statement selects the targets of every parent at once. */
async function loadInverse(
  context: RelationLoaderContext,
  relation: OrmRelation,
  args: LoadRelationArgs,
): Promise<Loaded> {
  const inverse = relation.inverseRelation;
  if (!inverse) throw new Error(`@svc/typeorm: '${relation.propertyPath}' has no inverse side to load it through.`);
  const join = single(inverse.joinColumns, relation);
  const parentColumn = context.table.requireColumn(join.referencedColumn!.propertyPath);
  const parentValues = args.parents.map((row) => row[parentColumn.property]);
  const target = context.tableOf(relation.inverseEntityMetadata.target as Function);
  const foreignKey = { quoted: target.driver.escape(join.databaseName), orm: join } as TableColumn;
  const rows = await selectTargets(context, target, foreignKey, unique(parentValues), args, true);
  const byParent = groupBy(rows);
  return parentValues.map((value) => {
    const children = byParent.get(String(value)) ?? [];
    return relation.isOneToOneNotOwner ? (children[0] ?? null) : children;
  });
}

/** Two statements: the junction rows of every parent, then every target they name. */
async function loadManyToMany(
  context: RelationLoaderContext,
  relation: OrmRelation,
  args: LoadRelationArgs,
): Promise<Loaded> {
  const junction = relation.junctionEntityMetadata!;
  const [parentSide, targetSide] = relation.isOwning
    ? [junction.ownerColumns, junction.inverseColumns]
    : [junction.inverseColumns, junction.ownerColumns];
  const parentJoin = single(parentSide, relation);
  const targetJoin = single(targetSide, relation);
  const parentColumn = context.table.requireColumn(parentJoin.referencedColumn!.propertyPath);
  const parentValues = args.parents.map((row) => row[parentColumn.property]);
  const driver = context.table.driver;
  const params = new SqlParameters();
  const links = await context.manager
    .createQueryBuilder()
    .select(`${driver.escape(parentJoin.databaseName)}`, 'parent_key')
    .addSelect(`${driver.escape(targetJoin.databaseName)}`, 'target_key')
    .from(junction.target, 'svc_junction')
    .where(
      inList(driver.escape(parentJoin.databaseName), unique(parentValues), params, (value) =>
        context.table.persistentValue(parentColumn, value),
      ),
      params.values,
    )
    .getRawMany<{ parent_key: unknown; target_key: unknown }>();
  const target = context.tableOf(relation.inverseEntityMetadata.target as Function);
  const targetColumn = target.requireColumn(targetJoin.referencedColumn!.propertyPath);
  const targetKeys = unique(links.map((link) => link.target_key));
  const rows = targetKeys.length === 0 ? [] : await selectTargets(context, target, targetColumn, targetKeys, args);
  const byKey = new Map(rows.map(({ row }) => [String(row[targetColumn.property]), row]));
  const byParent = new Map<string, Row[]>();
  for (const link of links) {
    const row = byKey.get(String(link.target_key));
    if (!row) continue;
    const list = byParent.get(String(link.parent_key)) ?? [];
    list.push(row);
    byParent.set(String(link.parent_key), list);
  }
  return parentValues.map((value) => byParent.get(String(value)) ?? []);
}

/** Foreign-key values of each parent, read from the row when the FK is a mapped property, else in one statement. */
async function parentForeignKeys(
  context: RelationLoaderContext,
  join: OrmColumn,
  args: LoadRelationArgs,
): Promise<unknown[]> {
  const { table } = context;
  const mapped = table.columns.find((column) => column.databaseName === join.databaseName);
  if (mapped) return args.parents.map((row) => row[mapped.property]);
  if (table.primary.length !== 1)
    throw new Error(`@svc/typeorm: ${table.name} needs a single-column primary key to load '${args.relation}'.`);
  const pk = table.primary[0]!;
  const params = new SqlParameters();
  const keys = args.parents.map((row) => row[pk.property]);
  const raw = await context.manager
    .createQueryBuilder()
    .select(pk.quoted, 'parent_key')
    .addSelect(table.driver.escape(join.databaseName), 'foreign_key')
    .from(table.orm.target, PARENT_ALIAS)
    .withDeleted()
    .where(
      inList(pk.quoted, unique(keys), params, (value) => table.persistentValue(pk, value)),
      params.values,
    )
    .getRawMany<{ parent_key: unknown; foreign_key: unknown }>();
  const byParent = new Map(raw.map((entry) => [String(entry.parent_key), entry.foreign_key]));
  return keys.map((key) => byParent.get(String(key)) ?? null);
}

/**
 * Keys one statement binds at most, beside a filter's values: under SQLite's 32,766 variables and the 65,535 of
 * PostgreSQL and MySQL. A many-to-many include can name more targets than that for one page.
 */
const MAX_KEYS_PER_STATEMENT = 10_000;

/**
 * The target rows whose `column` is in `values`, inside the caller's scope and row view, ordered by primary key; read
 * `MAX_KEYS_PER_STATEMENT` keys at a time. The rows of one key all come from one statement, so each parent's children
 * keep their order.
 */
async function selectTargets(
  context: RelationLoaderContext,
  target: EntityTable,
  column: Pick<TableColumn, 'quoted' | 'orm'>,
  values: readonly unknown[],
  args: { where?: FilterNode; view: RowView; computed?: LoadRelationArgs['computed'] },
  withParentKey = false,
): Promise<{ row: Row; parent?: unknown }[]> {
  // Written here rather than by a SelectQueryBuilder, as the adapter's own reads are: the values stay bound, and the
  // builder's work per include goes.
  const driver = target.driver;
  const parentKey = withParentKey ? `, ${column.quoted} AS ${driver.escape('svc_parent_key')}` : '';
  const order = target.primary.map((key) => `${key.quoted} ASC`).join(', ');
  const rows: { row: Row; parent?: unknown }[] = [];
  for (let start = 0; start < values.length; start += MAX_KEYS_PER_STATEMENT) {
    const params = new SqlParameters();
    const keys = values.slice(start, start + MAX_KEYS_PER_STATEMENT);
    const conditions = [
      inList(column.quoted, keys, params, (value) => driver.preparePersistentValue(value, column.orm)),
    ];
    if (args.where) conditions.push(filterToSql(args.where, target, params));
    conditions.push(...rowsOfSql(target, args.view, params));
    const sql =
      `SELECT ${target.selectListAs(TARGET_ALIAS)}${computedSelectSql(target, TARGET_ALIAS, args.computed, params)}${parentKey} FROM ${target.quotedPath} ${driver.escape(TARGET_ALIAS)}` +
      ` WHERE ${conditions.join(' AND ')}${order === '' ? '' : ` ORDER BY ${order}`}`;
    for (const entry of await rawRows(context.manager, bindSql(driver, sql, params.values)))
      rows.push({
        row: withComputedValues(target.hydrate(entry), entry, args.computed),
        parent: entry['svc_parent_key'],
      });
  }
  return rows;
}

function groupBy(rows: readonly { row: Row; parent?: unknown }[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const { row, parent } of rows) {
    const list = out.get(String(parent)) ?? [];
    list.push(row);
    out.set(String(parent), list);
  }
  return out;
}

function inList(
  quoted: string,
  values: readonly unknown[],
  params: SqlParameters,
  prepare: (value: unknown) => unknown,
): string {
  if (values.length === 0) return '1 = 0';
  return `${quoted} IN (${values.map((value) => params.bind(prepare(value))).join(', ')})`;
}

function unique(values: readonly unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values)
    if (value !== null && value !== undefined && !seen.has(String(value))) seen.set(String(value), value);
  return [...seen.values()];
}

function single(columns: readonly OrmColumn[], relation: OrmRelation): OrmColumn {
  if (columns.length !== 1) {
    throw new Error(
      `@svc/typeorm: '${relation.propertyPath}' joins on ${columns.length} columns; only single-column joins can be loaded.`,
    );
  }
  return columns[0]!;
}
