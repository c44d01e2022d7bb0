/** Reads core's EntityMetadata from TypeORM's, once per entity, frozen. */
import type { OrmColumn, OrmEntity, OrmRelation } from './orm-metadata';
import type { ColumnMetadata, EntityMetadata, RelationMetadata } from '@svc/core/spi';
import { ConfigurationException } from '@svc/core';
import type { DataSource } from 'typeorm';
import { columnKindOf, columnListOf } from './column-kind';

const cache = new WeakMap<OrmEntity, EntityMetadata>();

/** Core's view of `target` in `dataSource`; computed on first use and cached for the DataSource's life. */
export function readEntityMetadata(dataSource: DataSource, target: Function): EntityMetadata {
  if (!dataSource.hasMetadata(target)) {
    throw new ConfigurationException({
      entity: target.name,
      message:
        `${target.name} is not an entity of this DataSource. ` +
        'Add it to the DataSource entities (or TypeOrmModule autoLoadEntities) before registering it with Svc.',
    });
  }
  const orm = dataSource.getMetadata(target);
  const known = cache.get(orm);
  if (known) return known;
  const metadata = buildEntityMetadata(dataSource, orm, target);
  cache.set(orm, metadata);
  return metadata;
}

function buildEntityMetadata(dataSource: DataSource, orm: OrmEntity, target: Function): EntityMetadata {
  const columns = ownColumns(orm).map((column) => freezeColumn(readColumn(dataSource, column)));
  const relations = orm.relations.map((relation) => readRelation(dataSource, relation));
  const marker = orm.deleteDateColumn?.propertyPath;
  return Object.freeze({
    name: orm.name,
    target,
    columns: Object.freeze(columns),
    primaryKeys: Object.freeze(orm.primaryColumns.map((column) => column.propertyPath)),
    relations: Object.freeze(relations),
    ...(orm.tableType === 'view' ? { view: true } : {}),
    ...(orm.tableType === 'view' && orm.dependsOn ? { readsFrom: viewSources(dataSource, orm) } : {}),
    ...(marker === undefined ? {} : { deleteMarker: marker }),
    uniques: uniqueSets(orm),
  });
}

/**
 * The entities a view's rows are computed from, by name: its `dependsOn`, and theirs where they are views too (a
 * write to a table under a view under this one changes this one's rows). A name the data source does not know is
 * left out.
 */
function viewSources(dataSource: DataSource, view: OrmEntity): readonly string[] {
  const names = new Set<string>();
  const queue = [view];
  while (queue.length > 0) {
    for (const source of queue.pop()!.dependsOn ?? []) {
      const metadata = dataSource.hasMetadata(source) ? dataSource.getMetadata(source) : undefined;
      if (!metadata || names.has(metadata.name)) continue;
      names.add(metadata.name);
      if (metadata.tableType === 'view') queue.push(metadata);
    }
  }
  names.delete(view.name);
  return Object.freeze([...names]);
}

/**
 * The column sets the database keeps unique: unique constraints and unique indices (TypeORM records a column's
 * `unique: true` as either, by driver), in property names, each set once.
 */
function uniqueSets(orm: OrmEntity): readonly (readonly string[])[] {
  const sets = new Map<string, readonly string[]>();
  const add = (columns: readonly { propertyPath: string }[]) => {
    const names = columns.map((column) => column.propertyPath);
    if (names.length > 0) sets.set([...names].sort().join('\u0000'), Object.freeze(names));
  };
  for (const unique of orm.uniques) add(unique.columns);
  for (const index of orm.indices) if (index.isUnique) add(index.columns);
  return Object.freeze([...sets.values()]);
}

/**
 * The columns that are properties of their own: a join column that only exists as its relation (Review.book
 * without a `bookId` property) is left to the relation.
 */
export function ownColumns(orm: OrmEntity): OrmColumn[] {
  return orm.columns.filter((column) => !isRelationOnlyColumn(column));
}

function isRelationOnlyColumn(column: OrmColumn): boolean {
  return column.relationMetadata !== undefined && column.propertyName === column.relationMetadata.propertyName;
}

function readColumn(dataSource: DataSource, column: OrmColumn): ColumnMetadata {
  const kind = columnKindOf(dataSource, column);
  const list = columnListOf(dataSource, column);
  // TypeORM writes the discriminator of single-table inheritance itself, the entity's own value on every insert: a
  // client neither sends it nor changes it (a patch of it would turn the row into a sibling's).
  // A column the database computes (`asExpression`) is generated as well.
  const generated =
    column.isGenerated ||
    column.isCreateDate ||
    column.isUpdateDate ||
    column.isVersion ||
    column.isDiscriminator ||
    column.asExpression !== undefined;
  const length = column.length ? Number.parseInt(column.length, 10) : undefined;
  const literalDefault = column.default !== undefined && typeof column.default !== 'function';
  const result: ColumnMetadata = {
    property: column.propertyPath,
    kind,
    // A virtual column's query may give null (a MAX over no rows) whatever the column declares.
    nullable: column.isNullable || column.isVirtualProperty,
    primary: column.isPrimary,
    generated,
    hasDefault: column.default !== undefined || generated,
    deleteMarker: column.isDeleteDate,
    ...(literalDefault ? { defaultValue: column.default } : {}),
    ...(length !== undefined && Number.isFinite(length) ? { length } : {}),
    ...(kind === 'decimal' || list?.of === 'decimal' ? decimalDigits(dataSource, column) : {}),
    ...(kind === 'enum' && column.enum ? { enumValues: Object.freeze([...column.enum]) } : {}),
    ...(column.relationMetadata ? { foreignKeyOf: column.relationMetadata.propertyName } : {}),
    ...(list ? { list: Object.freeze(list) } : {}),
    ...(column.isSelect === false ? { hidden: true } : {}),
    ...(column.embeddedMetadata ? { embedded: true } : {}),
    ...(column.isVirtualProperty ? { virtual: true } : {}),
    ...(column.isInsert ? {} : { insertable: false as const }),
    ...(column.isUpdate ? {} : { updatable: false as const }),
  };
  return result;
}

/**
 * The digits a decimal column keeps, as TypeORM declares it to the database: a declared precision with its scale (0
 * when none is declared, as `decimal(p)` means); without one, the driver's default for the type (MySQL's
 * `decimal(10,0)`), else none (PostgreSQL's unconstrained `numeric`, and SQLite, which keeps any number), where a
 * declared scale alone is not written into the column type either.
 */
function decimalDigits(dataSource: DataSource, column: OrmColumn): { precision?: number; scale?: number } {
  const declared = column.precision ?? undefined;
  if (typeof declared === 'number' && declared > 0) return { precision: declared, scale: column.scale ?? 0 };
  const type = String(dataSource.driver.normalizeType(column)).toLowerCase();
  // Not every driver declares defaults (TypeORM's SQLite drivers leave them unset).
  const defaults: DataSource['driver']['dataTypeDefaults'] | undefined = dataSource.driver.dataTypeDefaults;
  const fallback = defaults?.[type];
  return typeof fallback?.precision === 'number' ? { precision: fallback.precision, scale: fallback.scale ?? 0 } : {};
}

function freezeColumn(column: ColumnMetadata): ColumnMetadata {
  return Object.freeze(column);
}

function readRelation(dataSource: DataSource, relation: OrmRelation): RelationMetadata {
  const target = relation.inverseEntityMetadata.target;
  if (typeof target !== 'function') {
    throw new ConfigurationException({
      entity: relation.entityMetadata.name,
      path: relation.propertyPath,
      message: 'relations to EntitySchema targets are not supported. Declare the target as a decorated class.',
    });
  }
  const joinColumns = relation.joinColumns.map((column) =>
    Object.freeze({
      ...(isRelationOnlyColumn(column) ? {} : { property: column.propertyPath }),
      referencedProperty: column.referencedColumn?.propertyPath ?? column.propertyPath,
      ...(column.referencedColumn ? { referencedKind: columnKindOf(dataSource, column.referencedColumn) } : {}),
    }),
  );
  const hidden = relation.inverseEntityMetadata.columns.filter((column) => column.isSelect === false);
  const embedded = relation.inverseEntityMetadata.columns.filter((column) => column.embeddedMetadata !== undefined);
  return Object.freeze({
    property: relation.propertyPath,
    kind: relation.relationType,
    target,
    targetName: relation.inverseEntityMetadata.name,
    owning: relation.isOwning,
    nullable: relation.isNullable,
    joinColumns: Object.freeze(joinColumns),
    ...(relation.inverseRelation ? { inverse: relation.inverseRelation.propertyPath } : {}),
    ...(hidden.length > 0 ? { hiddenTargetFields: Object.freeze(hidden.map((column) => column.propertyPath)) } : {}),
    ...(embedded.length > 0
      ? { embeddedTargetFields: Object.freeze(embedded.map((column) => column.propertyPath)) }
      : {}),
  });
}
