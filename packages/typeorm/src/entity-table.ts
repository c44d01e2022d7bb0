/** What the adapter precomputes per entity at construction: column maps, quoted identifiers, SQL fragments. */
import type { OrmColumn, OrmEntity } from './orm-metadata';
import type { Row } from '@svc/core';
import { relationOfPath, type EntityMetadata } from '@svc/core/spi';
import type { DataSource, Driver } from 'typeorm';
import { type DatabaseDialect, dialectOf, likeEscapeClause } from './database-dialect';
import { ownColumns, readEntityMetadata } from './read-entity-metadata';
import { type Hydrator, hydratorOf } from './column-hydration';

/** One own column: its property, its database name quoted for the driver, and TypeORM's metadata for values. */
export interface TableColumn {
  readonly property: string;
  readonly databaseName: string;
  /** `"title"` / `` `title` ``: unqualified, so the same fragment serves SELECT, UPDATE and DELETE. */
  readonly quoted: string;
  readonly orm: OrmColumn;
  /** The column's database value as the property value: `Driver.prepareHydratedValue`, with its common cases inlined. */
  readonly hydrate: Hydrator;
  /**
   * Where a read's raw row holds the value: the database name, or for a column read exactly (`exactIntegerSql`) an
   * alias of its own, `svc_i64_<name>`, which no ORDER BY or GROUP BY of the bare column name can take for the column.
   */
  readonly rawKey: string;
  /** The column's entry in a SELECT or RETURNING list: its quoted name, or its exact reading under `rawKey`. */
  readonly read: string;
}

/** The largest integer a JavaScript number holds exactly, 2^53 - 1. */
const SAFE_INTEGER = '9007199254740991';

/**
 * A select expression for a SQLite integer value that better-sqlite3 reads exactly: the integer while a JavaScript
 * number holds it, its decimal text past 2^53 (the driver would read it into a rounded double). PostgreSQL and MySQL
 * send a bigint as text already. An SQL NULL stays NULL.
 */
export function exactIntegerSql(expression: string): string {
  return (
    `CASE WHEN ${expression} BETWEEN -${SAFE_INTEGER} AND ${SAFE_INTEGER} THEN ${expression} ` +
    `ELSE CAST(${expression} AS TEXT) END`
  );
}

/** How a to-one relation written as `{ relation: { key } }` lands on mapped foreign-key properties. */
export interface RelationWrite {
  readonly property: string;
  readonly toOne: boolean;
  /** Mapped FK property → referenced property; empty when the FK exists only as the relation. */
  readonly foreignKeys: readonly { readonly property: string; readonly referencedProperty: string }[];
}

/**
 * Soft-delete markers chosen by configuration (`delete.field` naming a plain nullable date column) per DataSource and
 * entity, so every table of that entity (its own adapter's, and those other entities build to load or filter it)
 * reads the same marker.
 */
const markerOverrides = new WeakMap<DataSource, Map<Function, string>>();

/** Makes `property` the soft-delete marker of `target` on this DataSource. */
export function useDeleteMarker(dataSource: DataSource, target: Function, property: string): void {
  let byTarget = markerOverrides.get(dataSource);
  if (!byTarget) markerOverrides.set(dataSource, (byTarget = new Map()));
  byTarget.set(target, property);
}

export class EntityTable {
  readonly dialect: DatabaseDialect;
  readonly driver: Driver;
  readonly orm: OrmEntity;
  readonly metadata: EntityMetadata;
  readonly columns: readonly TableColumn[];
  readonly primary: readonly TableColumn[];
  /**
   * Columns TypeORM fills with a client-side uuid on insert when a row leaves them out: generated uuid columns, where
   * the database makes none (all but PostgreSQL).
   */
  readonly clientUuids: readonly TableColumn[];
  /** The delete-date column TypeORM declares, when no configured marker replaces it. */
  private readonly ormMarker?: TableColumn;
  /**
   * Whether a column is computed by a query on read (`@VirtualColumn`): a write's `RETURNING *` cannot hold it, so the
   * row is read back instead.
   */
  readonly computed: boolean;
  /** Whether the entity has columns of an embedded class, which the builders take nested (`forBuilder`). */
  readonly embedded: boolean;
  /** The columns an INSERT may write: those TypeORM inserts, but a generated one (`asExpression`), which the database computes. */
  readonly insertable: readonly OrmColumn[];
  /**
   * The columns TypeORM's insert builder must list, where its own choice fails: on SQLite it lists a generated column
   * and writes NULL to it, which SQLite refuses ("cannot INSERT into generated column"). Undefined where the
   * builder's choice stands.
   */
  readonly builderInsertColumns?: readonly string[];
  private readonly selectLists = new Map<string, string>();
  /**
   * What a write's RETURNING lists: `*`, and on SQLite each bigint column's exact reading beside it (`TableColumn.read`),
   * so `hydrate` reads a written row as it reads a selected one.
   */
  readonly returningList: string;
  readonly likeEscape: string;
  private readonly byProperty: ReadonlyMap<string, TableColumn>;
  private readonly byDatabaseName: ReadonlyMap<string, TableColumn>;
  private readonly relations: ReadonlyMap<string, RelationWrite>;

  /** Tables of related entities, built on first use. */
  private readonly related = new Map<Function, EntityTable>();
  /** Properties whose column leads an index, found on first use (`leadsAnIndex`). */
  private indexLeaders?: ReadonlySet<string>;
  /** This table's name as SQL, schema-qualified where the entity has a schema. */
  readonly quotedPath: string;
  /**
   * For a child entity of single-table inheritance, which shares its table with its siblings: its discriminator column
   * and the values its rows hold there (its own and its children's). TypeORM's builders add this condition to every
   * statement they write for the entity; the adapter's own statements add it too (`rowsOfSql`).
   */
  readonly discriminator?: { readonly quoted: string; readonly values: readonly unknown[] };

  constructor(
    private readonly dataSource: DataSource,
    private readonly target: Function,
  ) {
    this.dialect = dialectOf(dataSource);
    this.driver = dataSource.driver;
    this.metadata = withMarker(readEntityMetadata(dataSource, target), markerOverrides.get(dataSource)?.get(target));
    this.orm = dataSource.getMetadata(target);
    const kinds = new Map(this.metadata.columns.map((column) => [column.property, column.kind]));
    this.columns = ownColumns(this.orm).map((orm) => {
      const quoted = this.driver.escape(orm.databaseName);
      const exact = this.dialect === 'sqlite' && kinds.get(orm.propertyPath) === 'bigint' && !orm.isVirtualProperty;
      const rawKey = exact ? `svc_i64_${orm.databaseName}` : orm.databaseName;
      return {
        property: orm.propertyPath,
        databaseName: orm.databaseName,
        quoted,
        orm,
        hydrate: hydratorOf(this.driver, this.dialect, orm),
        rawKey,
        read: exact ? `${exactIntegerSql(quoted)} AS ${this.driver.escape(rawKey)}` : quoted,
      };
    });
    const exactReads = this.columns.filter((column) => column.rawKey !== column.databaseName);
    this.returningList = ['*', ...exactReads.map((column) => column.read)].join(', ');
    this.byProperty = new Map(this.columns.map((column) => [column.property, column]));
    this.byDatabaseName = new Map(this.columns.map((column) => [column.databaseName, column]));
    this.primary = this.metadata.primaryKeys.map((property) => this.requireColumn(property));
    this.clientUuids =
      this.dialect === 'postgres'
        ? []
        : this.columns.filter((column) => column.orm.isGenerated && column.orm.generationStrategy === 'uuid');
    this.ormMarker =
      this.metadata.deleteMarker === undefined ? undefined : this.requireColumn(this.metadata.deleteMarker);
    this.computed = this.columns.some((column) => column.orm.isVirtualProperty);
    this.embedded = this.columns.some((column) => column.orm.embeddedMetadata !== undefined);
    this.insertable = this.orm.columns.filter((column) => column.isInsert && column.asExpression === undefined);
    if (this.dialect === 'sqlite' && this.orm.columns.some((column) => column.asExpression !== undefined))
      this.builderInsertColumns = this.insertable.map((column) => column.propertyPath);
    this.likeEscape = likeEscapeClause(this.dialect);
    this.relations = new Map(this.metadata.relations.map((relation) => [relation.property, toRelationWrite(relation)]));
    this.quotedPath = quotePath(this.driver, this.orm.tablePath);
    const { discriminatorColumn, parentEntityMetadata, childEntityMetadatas } = this.orm;
    if (discriminatorColumn && parentEntityMetadata) {
      const children = childEntityMetadatas.filter((child) => child.discriminatorColumn);
      this.discriminator = {
        quoted: this.driver.escape(discriminatorColumn.databaseName),
        values: [...children.map((child) => child.discriminatorValue), this.orm.discriminatorValue],
      };
    }
  }

  /**
   * The SELECT list of every column, for a FROM that names the table `alias`: a virtual column as its query, as
   * TypeORM's builder selects it, under the column's name; a SQLite bigint read exactly under its `rawKey`.
   */
  selectListAs(alias: string): string {
    let list = this.selectLists.get(alias);
    if (list === undefined) {
      const escaped = this.driver.escape(alias);
      list = this.columns
        .map(({ orm, quoted, read }) =>
          orm.isVirtualProperty && orm.query ? `(${orm.query(escaped)}) AS ${quoted}` : read,
        )
        .join(', ');
      this.selectLists.set(alias, list);
    }
    return list;
  }

  /** A table of the DataSource by its name (an entity's or a join table), quoted as its ORM places it. */
  quotedTableNamed(name: string): string {
    const known = this.dataSource.entityMetadatas.find((metadata) => metadata.tableName === name);
    return quotePath(this.driver, known?.tablePath ?? name);
  }

  /** The table of another entity of the same DataSource. */
  tableOf(target: Function): EntityTable {
    let table = this.related.get(target);
    if (!table) {
      table = new EntityTable(this.dataSource, target);
      this.related.set(target, table);
    }
    return table;
  }

  /** The soft-delete marker column: a configured one, else TypeORM's delete-date column. */
  get marker(): TableColumn | undefined {
    const configured = markerOverrides.get(this.dataSource)?.get(this.target);
    return configured === undefined ? this.ormMarker : this.byProperty.get(configured);
  }

  get name(): string {
    return this.metadata.name;
  }

  column(property: string): TableColumn | undefined {
    return this.byProperty.get(property);
  }

  /** The relation a filter, sort or group path crosses; undefined for an own column (an embedded one's path too). */
  relationOf(field: string): string | undefined {
    return relationOfPath(field, this.byProperty);
  }

  relation(property: string): RelationWrite | undefined {
    return this.relations.get(property);
  }

  /** The column of a filter or sort field; relation paths and unknown names are programming errors. */
  requireColumn(property: string): TableColumn {
    const column = this.byProperty.get(property);
    if (column) return column;
    if (property.includes('.')) {
      throw new Error(
        `@svc/typeorm: '${property}' on ${this.orm.name} is a relation path; the adapter does not filter or sort ` +
          'by relation paths yet. Use a column of the entity itself.',
      );
    }
    throw new Error(
      `@svc/typeorm: '${property}' is not a column of ${this.orm.name}. Use one of its column properties.`,
    );
  }

  /**
   * Whether `property`'s column is the first column of an index TypeORM knows of: the primary key, an `@Index` or a
   * `@Unique`, and on MySQL/MariaDB also a foreign key (InnoDB indexes each). An index made outside TypeORM's
   * metadata is not seen.
   */
  leadsAnIndex(property: string): boolean {
    let leading = this.indexLeaders;
    if (!leading) {
      const firsts = [
        this.orm.primaryColumns,
        ...this.orm.indices.map((index) => index.columns),
        ...this.orm.uniques.map((unique) => unique.columns),
        ...(this.dialect === 'mysql' ? this.orm.foreignKeys.map((key) => key.columns) : []),
      ].map((columns) => columns[0]?.propertyPath);
      leading = this.indexLeaders = new Set(firsts.filter((name): name is string => name !== undefined));
    }
    return leading.has(property);
  }

  /** The entity property that a database column name (from a driver error) belongs to. */
  propertyOfDatabaseName(databaseName: string): string | undefined {
    const own = this.byDatabaseName.get(databaseName);
    if (own) return own.property;
    const joined = this.orm.columns.find((column) => column.databaseName === databaseName);
    return joined?.relationMetadata?.propertyPath ?? joined?.propertyPath;
  }

  /**
   * A database row (keys are column names, or a column's `rawKey` where the statement read it exactly) as a plain
   * object of properties, values hydrated by the driver.
   */
  hydrate(raw: Record<string, unknown>): Row {
    const row: Row = {};
    for (const column of this.columns) {
      const { rawKey, databaseName } = column;
      const value = rawKey === databaseName || !(rawKey in raw) ? raw[databaseName] : raw[rawKey];
      row[column.property] = column.hydrate(value);
    }
    return row;
  }

  /** A value as the driver binds it for `column` (booleans as 0/1 on SQLite and MySQL, dates as strings, ...). */
  persistentValue(column: TableColumn, value: unknown): unknown {
    return this.driver.preparePersistentValue(value, column.orm);
  }
}

/** The metadata with `marker` as the soft-delete marker in place of TypeORM's delete-date column, if given. */
function withMarker(metadata: EntityMetadata, marker: string | undefined): EntityMetadata {
  if (marker === undefined || metadata.deleteMarker === marker) return metadata;
  return Object.freeze({
    ...metadata,
    deleteMarker: marker,
    columns: Object.freeze(
      metadata.columns.map((column) => Object.freeze({ ...column, deleteMarker: column.property === marker })),
    ),
  });
}

/** `schema.table` → `"schema"."table"`; each part quoted by the driver. */
export function quotePath(driver: Driver, path: string): string {
  return path
    .split('.')
    .map((part) => driver.escape(part))
    .join('.');
}

function toRelationWrite(relation: EntityMetadata['relations'][number]): RelationWrite {
  const toOne = relation.kind === 'many-to-one' || relation.kind === 'one-to-one';
  const foreignKeys = relation.joinColumns.flatMap((join) =>
    join.property === undefined ? [] : [{ property: join.property, referencedProperty: join.referencedProperty }],
  );
  return { property: relation.property, toOne: toOne && relation.owning, foreignKeys };
}
