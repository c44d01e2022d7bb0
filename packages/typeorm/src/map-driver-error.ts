/** Turns a driver error into the Svc exception a client can act on; the original error is always the `cause`. */
import {
  ConflictException,
  DatabaseUnavailableException,
  PersistenceException,
  SvcException,
  TransactionFailedException,
  UnresolvedRelationException,
  ValidationFailedException,
  type SvcErrorItem,
} from '@svc/core';
import { classifyDriverError, type DriverFailure } from './classify-driver-error';
import type { EntityTable } from './entity-table';

/** What the failed statement was doing: a foreign-key failure means a missing target on writes, a reference on deletes. */
export type StatementKind = 'read' | 'write' | 'delete';

/**
 * Seconds a client should wait before retrying after a lost connection: long enough for the pool to reconnect or fail
 * over, short enough that a retry through a load balancer does not stall.
 */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const VALIDATION_CODES = {
  notNull: { code: 'required', detail: (field: string) => `${field} is required. Send a value for it.` },
  tooLong: { code: 'too_long', detail: (field: string) => `${field} is too long. Send a shorter value.` },
  outOfRange: { code: 'out_of_range', detail: (field: string) => `${field} is out of range. Send a smaller value.` },
  invalidValue: {
    code: 'invalid',
    detail: (field: string) => `${field} has a value the database does not accept. Check its type and format.`,
  },
} as const;

/** The Svc exception for `error`, raised while `statement` ran against `table`. SvcExceptions pass through. */
export function mapDriverError(error: unknown, table: EntityTable, statement: StatementKind): SvcException {
  if (error instanceof SvcException) return error;
  const failure = classifyDriverError(error, table.dialect);
  switch (failure.kind) {
    case 'unique': {
      const fields = fieldsOf(failure, table);
      const detail = uniqueDetail(fields, table);
      const conflict = new ConflictException(detail, error, {
        unique: fields,
        errors: uniqueItems(fields, table, detail),
      });
      // Its fields are this table's: a nested row's conflict is about the nested row's entity.
      conflict.entity = table.name;
      return conflict;
    }
    case 'foreignKey':
      return statement === 'delete'
        ? new ConflictException(referencedDetail(failure, table), error)
        : new UnresolvedRelationException(unresolvedDetail(failure, table), error);
    case 'notNull':
    case 'tooLong':
    case 'outOfRange':
    case 'invalidValue':
      return validationFailure(failure, table, error);
    case 'transient':
      return new TransactionFailedException(error);
    case 'unavailable':
      return new DatabaseUnavailableException(error, UNAVAILABLE_RETRY_AFTER_SECONDS);
    default:
      return new PersistenceException(error);
  }
}

function validationFailure(failure: DriverFailure, table: EntityTable, cause: unknown): SvcException {
  const rule = VALIDATION_CODES[failure.kind as keyof typeof VALIDATION_CODES];
  const field = failure.columns.length > 0 ? (propertiesOf(failure.columns, table)[0] ?? '') : '';
  const detail = rule.detail(field === '' ? 'A value' : field);
  // ValidationFailedException takes no cause argument; keep the driver error like every other mapping does.
  return Object.assign(new ValidationFailedException([{ field, code: rule.code, detail }]), {
    cause,
    entity: table.name,
  });
}

function uniqueDetail(fields: readonly string[], table: EntityTable): string {
  if (fields.length === 0) {
    return `Another ${table.name} already has one of these unique values. Change the value, or update that ${table.name} instead.`;
  }
  const what = fields.length === 1 ? `this ${fields[0]}` : `this combination of ${fields.join(', ')}`;
  return `Another ${table.name} already has ${what}. Use a different value, or update the existing ${table.name}.`;
}

/**
 * One `duplicate` item per field of the violated set, when each is a property of the entity (a column Svc cannot map
 * back names none). Never the value: it may be another tenant's.
 */
function uniqueItems(fields: readonly string[], table: EntityTable, detail: string): SvcErrorItem[] | undefined {
  if (fields.length === 0 || fields.some((field) => !table.orm.findColumnWithPropertyPath(field))) return undefined;
  return fields.map((field) => ({ field, code: 'duplicate', detail }));
}

function unresolvedDetail(failure: DriverFailure, table: EntityTable): string {
  const fields = fieldsOf(failure, table);
  const what = fields.length > 0 ? `by ${fields.join(', ')}` : `by this ${table.name}`;
  return `The row referenced ${what} does not exist. Check the id, or create the related row first.`;
}

function referencedDetail(failure: DriverFailure, table: EntityTable): string {
  const by = failure.referencingTable ? `rows of ${failure.referencingTable}` : 'other rows';
  return `This ${table.name} is still referenced by ${by}. Remove or reassign those rows first.`;
}

/** Properties named by the failure: its columns, else the columns of the named constraint or index. */
function fieldsOf(failure: DriverFailure, table: EntityTable): string[] {
  if (failure.columns.length > 0) return propertiesOf(failure.columns, table);
  if (failure.constraint === undefined) return [];
  return constraintProperties(table).get(failure.constraint) ?? [];
}

function propertiesOf(columns: readonly string[], table: EntityTable): string[] {
  return columns.map((name) => table.propertyOfDatabaseName(name) ?? name);
}

const constraintCache = new WeakMap<EntityTable, ReadonlyMap<string, string[]>>();

/** Unique constraint and index names → properties; built on the first failure that needs it. */
function constraintProperties(table: EntityTable): ReadonlyMap<string, string[]> {
  const known = constraintCache.get(table);
  if (known) return known;
  const map = new Map<string, string[]>();
  const add = (name: string | undefined, columns: readonly { propertyPath: string }[]): void => {
    if (name)
      map.set(
        name,
        columns.map((column) => column.propertyPath),
      );
  };
  for (const unique of table.orm.uniques) add(unique.name, unique.columns);
  for (const index of table.orm.indices) if (index.isUnique) add(index.name, index.columns);
  add('PRIMARY', table.orm.primaryColumns);
  add(table.orm.primaryColumns[0]?.primaryKeyConstraintName, table.orm.primaryColumns);
  constraintCache.set(table, map);
  return map;
}
