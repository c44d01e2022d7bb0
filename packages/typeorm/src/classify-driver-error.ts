/** Reads what failed out of a PostgreSQL, MySQL/MariaDB or SQLite driver error, without interpreting it yet. */
import type { DatabaseDialect } from './database-dialect';

export type DriverFailureKind =
  'unique' | 'foreignKey' | 'notNull' | 'tooLong' | 'outOfRange' | 'invalidValue' | 'transient' | 'unknown';

export interface DriverFailure {
  readonly kind: DriverFailureKind;
  /** Database column names the driver named, when it did. */
  readonly columns: readonly string[];
  /** Constraint or index name, when the driver named one. */
  readonly constraint?: string;
  /** For a foreign-key failure on delete: the table that still references the row. */
  readonly referencingTable?: string;
}

interface DriverErrorFields {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  readonly sqlMessage?: unknown;
  readonly constraint?: unknown;
  readonly column?: unknown;
  readonly detail?: unknown;
}

/** The failure inside `error` (a TypeORM QueryFailedError or a raw driver error). */
export function classifyDriverError(error: unknown, dialect: DatabaseDialect): DriverFailure {
  const wrapped = (error as { driverError?: unknown } | null)?.driverError;
  const fields = (wrapped ?? error ?? {}) as DriverErrorFields;
  if (typeof fields !== 'object') return { kind: 'unknown', columns: [] };
  if (dialect === 'postgres') return classifyPostgres(fields);
  if (dialect === 'mysql') return classifyMysql(fields);
  return classifySqlite(fields);
}

const POSTGRES_KINDS: Readonly<Record<string, DriverFailureKind>> = {
  '23505': 'unique',
  '23503': 'foreignKey',
  '23502': 'notNull',
  '22001': 'tooLong',
  '22003': 'outOfRange',
  '22P02': 'invalidValue',
  '22007': 'invalidValue',
  '22008': 'invalidValue',
  '23514': 'invalidValue',
  '40001': 'transient',
  '40P01': 'transient',
  '55P03': 'transient',
};

function classifyPostgres(fields: DriverErrorFields): DriverFailure {
  const kind = POSTGRES_KINDS[String(fields.code)] ?? 'unknown';
  const detail = typeof fields.detail === 'string' ? fields.detail : '';
  const keyColumns = /^Key \(([^)]*)\)=/.exec(detail)?.[1];
  const columns =
    typeof fields.column === 'string'
      ? [fields.column]
      : keyColumns
        ? keyColumns.split(',').map((name) => unquote(name.trim()))
        : [];
  const referencingTable = /referenced from table "([^"]+)"/.exec(detail)?.[1];
  return {
    kind,
    columns,
    ...(typeof fields.constraint === 'string' ? { constraint: fields.constraint } : {}),
    ...(referencingTable ? { referencingTable } : {}),
  };
}

const MYSQL_KINDS: Readonly<Record<number, DriverFailureKind>> = {
  1062: 'unique',
  1216: 'foreignKey',
  1217: 'foreignKey',
  1451: 'foreignKey',
  1452: 'foreignKey',
  1048: 'notNull',
  1364: 'notNull',
  1406: 'tooLong',
  1264: 'outOfRange',
  1366: 'invalidValue',
  1292: 'invalidValue',
  1265: 'invalidValue',
  4025: 'invalidValue',
  1213: 'transient',
  1205: 'transient',
};

function classifyMysql(fields: DriverErrorFields): DriverFailure {
  const kind = MYSQL_KINDS[Number(fields.errno)] ?? 'unknown';
  const message = String(fields.sqlMessage ?? fields.message ?? '');
  const column =
    /(?:for column|Column|Field) ((?:[`'"][^`'"]*[`'"]\.?)+)/.exec(message)?.[1] ??
    /for column (\S+)/.exec(message)?.[1];
  const constraint = /for key '([^']+)'/.exec(message)?.[1] ?? /CONSTRAINT `([^`]+)`/.exec(message)?.[1];
  const fkColumns = /FOREIGN KEY \(([^)]*)\)/.exec(message)?.[1];
  const referencingTable = /fails \(`[^`]*`\.`([^`]+)`/.exec(message)?.[1];
  const columns = column
    ? [lastSegment(column)]
    : fkColumns
      ? fkColumns.split(',').map((name) => unquote(name.trim()))
      : [];
  return {
    kind,
    columns,
    ...(constraint ? { constraint: lastSegment(constraint) } : {}),
    ...(referencingTable ? { referencingTable } : {}),
  };
}

const SQLITE_KINDS: Readonly<Record<string, DriverFailureKind>> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreignKey',
  SQLITE_CONSTRAINT_NOTNULL: 'notNull',
  SQLITE_CONSTRAINT_CHECK: 'invalidValue',
  SQLITE_MISMATCH: 'invalidValue',
  SQLITE_BUSY: 'transient',
  SQLITE_LOCKED: 'transient',
};

function classifySqlite(fields: DriverErrorFields): DriverFailure {
  const message = String(fields.message ?? '');
  // ON DELETE RESTRICT fails as SQLITE_CONSTRAINT_TRIGGER, with the same message as other foreign-key failures.
  const foreignKey = /FOREIGN KEY constraint failed/.test(message);
  const kind = foreignKey ? 'foreignKey' : (SQLITE_KINDS[String(fields.code)] ?? 'unknown');
  const list = /constraint failed: (.+)$/.exec(message)?.[1];
  const columns = list && kind !== 'invalidValue' ? list.split(',').map((name) => lastSegment(name.trim())) : [];
  return { kind, columns };
}

/** `db`.`table`.`col` → col; 'table.IDX' → IDX. */
function lastSegment(name: string): string {
  const parts = name.split('.').map((part) => unquote(part.trim()));
  return parts[parts.length - 1] ?? name;
}

function unquote(name: string): string {
  return name.replace(/^[`'"]|[`'"]$/g, '');
}
