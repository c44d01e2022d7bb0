/** Maps a TypeORM column to core's ColumnKind from its declared and database-normalized types. */
import type { OrmColumn } from './orm-metadata';
import type { ColumnKind, ColumnList } from '@svc/core/spi';
import type { DataSource } from 'typeorm';

const KIND_BY_TYPE: Readonly<Record<string, ColumnKind>> = {
  uuid: 'uuid',
  'simple-enum': 'enum',
  enum: 'enum',
  'simple-json': 'json',
  json: 'json',
  jsonb: 'json',
  boolean: 'boolean',
  bool: 'boolean',
  int: 'integer',
  int2: 'integer',
  int4: 'integer',
  integer: 'integer',
  smallint: 'integer',
  mediumint: 'integer',
  tinyint: 'integer',
  float: 'number',
  float4: 'number',
  float8: 'number',
  double: 'number',
  'double precision': 'number',
  real: 'number',
  bigint: 'bigint',
  int8: 'bigint',
  decimal: 'decimal',
  numeric: 'decimal',
  dec: 'decimal',
  date: 'date',
  datetime: 'datetime',
  datetime2: 'datetime',
  timestamp: 'datetime',
  timestamptz: 'datetime',
  'timestamp without time zone': 'datetime',
  'timestamp with time zone': 'datetime',
};

/** The kind core coerces and validates `column` as; unknown types (text, varchar, time, ...) are strings. */
export function columnKindOf(dataSource: DataSource, column: OrmColumn): ColumnKind {
  if (columnListOf(dataSource, column)) return 'json';
  return scalarKindOf(dataSource, column);
}

/**
 * What a list column holds: a `simple-array` holds text joined with commas; a PostgreSQL array column
 * (`array: true`) values of its element type.
 */
export function columnListOf(dataSource: DataSource, column: OrmColumn): ColumnList | undefined {
  if (column.type === 'simple-array') return { of: 'string', separator: ',' };
  if (column.isArray) return { of: scalarKindOf(dataSource, column) };
  return undefined;
}

function scalarKindOf(dataSource: DataSource, column: OrmColumn): ColumnKind {
  if (column.isGenerated && column.generationStrategy === 'uuid') return 'uuid';
  if (column.enum !== undefined && column.enum.length > 0) return 'enum';
  const declared = declaredKind(column);
  if (declared !== undefined) return declared;
  const normalized = String(dataSource.driver.normalizeType(column)).toLowerCase();
  return KIND_BY_TYPE[normalized] ?? 'string';
}

/** The kind told by the declared type, before the driver folds booleans into tinyint or uuids into varchar. */
function declaredKind(column: OrmColumn): ColumnKind | undefined {
  const type: unknown = column.type;
  if (type === Boolean) return 'boolean';
  if (type === Date) return 'datetime';
  if (type === String) return 'string';
  if (typeof type !== 'string') return undefined;
  const kind = KIND_BY_TYPE[type.toLowerCase()];
  // `tinyint(1)` is MySQL's boolean; TypeORM 1 has no display width (`width`), where a boolean is declared as one.
  const width = (column as { readonly width?: number }).width;
  if (kind === 'integer' && type.toLowerCase() === 'tinyint' && width === 1) return 'boolean';
  return kind;
}
