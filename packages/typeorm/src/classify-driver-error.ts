/** Reads what failed out of a PostgreSQL, MySQL/MariaDB or SQLite driver error, without interpreting it yet. */
import type { DatabaseDialect } from './database-dialect';

/** `unavailable`: the connection was lost, refused or shut down, whatever the statement was. */
export type DriverFailureKind =
  | 'unique'
  | 'foreignKey'
  | 'notNull'
  | 'tooLong'
  | 'outOfRange'
  | 'invalidValue'
  | 'transient'
  | 'unavailable'
  | 'unknown';

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
  if (lostByTypeorm(error)) return { kind: 'unavailable', columns: [] };
  const wrapped = (error as { driverError?: unknown } | null)?.driverError;
  const fields = (wrapped ?? error ?? {}) as DriverErrorFields;
  if (typeof fields !== 'object') return { kind: 'unknown', columns: [] };
  if (dialect === 'postgres') return classifyPostgres(fields);
  if (dialect === 'mysql') return classifyMysql(fields);
  return classifySqlite(fields);
}

/**
 * TypeORM releases a query runner whose connection raised an error while no statement was running on it (a backend
 * killed between two statements of a transaction); the next statement of that runner then fails with one of these,
 * not with a driver error. Svc never uses a runner after releasing it itself, so they mean a lost connection.
 */
const RELEASED_RUNNER_ERRORS: ReadonlySet<string> = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

function lostByTypeorm(error: unknown): boolean {
  return error instanceof Error && RELEASED_RUNNER_ERRORS.has(error.name);
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

/** Node's codes for a socket the server closed, reset or never accepted; both drivers pass them through. */
const SOCKET_LOST_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/** SQLSTATE class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now. */
const POSTGRES_UNAVAILABLE_CODE = /^(?:08[0-9A-Z]{3}|57P0[123])$/;

/** node-postgres raises these as plain Errors, without a code, when the connection dies under a query. */
const POSTGRES_LOST_MESSAGE = /^Connection terminated|is not queryable$/;

function postgresUnavailable(fields: DriverErrorFields): boolean {
  const code = String(fields.code);
  return (
    POSTGRES_UNAVAILABLE_CODE.test(code) ||
    SOCKET_LOST_CODES.has(code) ||
    POSTGRES_LOST_MESSAGE.test(String(fields.message ?? ''))
  );
}

function classifyPostgres(fields: DriverErrorFields): DriverFailure {
  if (postgresUnavailable(fields)) return { kind: 'unavailable', columns: [] };
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

/**
 * 1053 server shutdown, 1927 connection killed (MariaDB), 4031 disconnected for inactivity (MySQL 8), 2006 server
 * gone away and 2013 lost during query (client-side codes of the C connectors).
 */
const MYSQL_UNAVAILABLE_ERRNOS: ReadonlySet<number> = new Set([1053, 1927, 4031, 2006, 2013]);

/** mysql2 raises these as plain Errors, without a code, when a command is sent on a connection that died. */
const MYSQL_LOST_MESSAGE = /^Can't (?:add new command|write) (?:when connection is )?in closed state/;

function mysqlUnavailable(fields: DriverErrorFields): boolean {
  const code = String(fields.code);
  return (
    code === 'PROTOCOL_CONNECTION_LOST' ||
    SOCKET_LOST_CODES.has(code) ||
    MYSQL_UNAVAILABLE_ERRNOS.has(Number(fields.errno)) ||
    MYSQL_LOST_MESSAGE.test(String(fields.message ?? ''))
  );
}

function classifyMysql(fields: DriverErrorFields): DriverFailure {
  if (mysqlUnavailable(fields)) return { kind: 'unavailable', columns: [] };
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

/**
 * The kind of a constraint failure by its message, for drivers that give only the primary code `SQLITE_CONSTRAINT`
 * (node-sqlite3; better-sqlite3 gives the extended code, `SQLITE_CONSTRAINT_UNIQUE`).
 */
const SQLITE_CONSTRAINT_MESSAGES: readonly [RegExp, DriverFailureKind][] = [
  [/UNIQUE constraint failed/, 'unique'],
  [/NOT NULL constraint failed/, 'notNull'],
  [/CHECK constraint failed/, 'invalidValue'],
];

function classifySqlite(fields: DriverErrorFields): DriverFailure {
  const message = String(fields.message ?? '');
  // ON DELETE RESTRICT fails as SQLITE_CONSTRAINT_TRIGGER, with the same message as other foreign-key failures.
  const foreignKey = /FOREIGN KEY constraint failed/.test(message);
  const byMessage = () => SQLITE_CONSTRAINT_MESSAGES.find(([pattern]) => pattern.test(message))?.[1] ?? 'unknown';
  const kind = foreignKey
    ? 'foreignKey'
    : (SQLITE_KINDS[String(fields.code)] ?? (fields.code === 'SQLITE_CONSTRAINT' ? byMessage() : 'unknown'));
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
