/** Exception classes: each binds one catalog code; HTTP, GraphQL and MCP map them at their edge. */
import { ERROR_CATALOG, type SvcErrorCode } from './error-catalog';

/** One problem inside an error: a query parameter or a body field, what is wrong, and a machine code. */
export interface SvcErrorItem {
  readonly param?: string;
  readonly field?: string;
  readonly code: string;
  readonly detail: string;
}

export interface SvcExceptionOptions {
  readonly detail?: string;
  readonly errors?: readonly SvcErrorItem[];
  /** Message parameters (for example `entity` and `id` on not-found). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Driver-level cause; only served with `errors.exposeInternals`. */
  readonly cause?: unknown;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Status for SVC_HTTP_ERROR, which carries the status of a framework error; other codes keep their catalog status. */
  readonly status?: number;
  /** The entity the error is about; the engine sets it on an error an entity's operation raises, when unset. */
  readonly entity?: string;
}

/** Base of every error Svc raises on purpose. */
export class SvcException extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors?: readonly SvcErrorItem[];
  readonly params?: Readonly<Record<string, unknown>>;
  override readonly cause?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The entity the error is about (served as the problem's `entity` member): set where it is raised, or by the engine
   * when an operation of an entity fails with an error that names none.
   */
  entity?: string;

  constructor(
    readonly code: SvcErrorCode,
    options: SvcExceptionOptions = {},
  ) {
    const detail = options.detail ?? ERROR_CATALOG[code].detail;
    super(detail);
    this.name = new.target.name;
    this.status = code === 'SVC_HTTP_ERROR' && options.status ? options.status : ERROR_CATALOG[code].status;
    this.detail = detail;
    this.errors = options.errors;
    this.params = options.params;
    this.cause = options.cause;
    this.headers = options.headers;
    if (options.entity !== undefined) this.entity = options.entity;
  }
}

/** 400 SVC_QUERY_INVALID: one entry in `errors` per problem, each naming its parameter. */
export class QueryInvalidException extends SvcException {
  constructor(errors: readonly SvcErrorItem[], detail?: string) {
    super('SVC_QUERY_INVALID', { errors, detail: detail ?? summarize(errors, 'The query is invalid') });
  }
}

/** 400 SVC_QUERY_UNSUPPORTED_PARAM naming each parameter the resource does not take. */
export class QueryUnsupportedParamException extends SvcException {
  constructor(errors: readonly SvcErrorItem[]) {
    super('SVC_QUERY_UNSUPPORTED_PARAM', { errors, detail: summarize(errors, 'Unsupported query parameter') });
  }
}

/** 400 SVC_VALIDATION_FAILED: one entry in `errors` per failing body field. */
export class ValidationFailedException extends SvcException {
  constructor(errors: readonly SvcErrorItem[], detail?: string, cause?: unknown) {
    super('SVC_VALIDATION_FAILED', { errors, detail: detail ?? summarize(errors, 'The body is invalid'), cause });
  }
}

/** 400 SVC_MALFORMED_REQUEST: the body is not JSON, or not an object. */
export class MalformedRequestException extends SvcException {
  constructor(detail: string) {
    super('SVC_MALFORMED_REQUEST', { detail });
  }
}

/** 403 SVC_FORBIDDEN: the policy refused the operation. */
export class ForbiddenException extends SvcException {
  constructor(operation: string, entity: string, detail?: string) {
    super('SVC_FORBIDDEN', {
      detail: detail ?? `The policy refused ${operation} on ${entity}. Ask for access, or act on rows you may use.`,
      params: { operation, entity },
      entity,
    });
  }
}

/** 404 SVC_NOT_FOUND with message params `entity` and `id`. */
export class NotFoundException extends SvcException {
  constructor(entity: string, id: unknown) {
    super('SVC_NOT_FOUND', {
      detail: `${entity} ${JSON.stringify(id)} was not found. Check the id, or list the collection to find it.`,
      params: { entity, id },
      entity,
    });
  }
}

/** 405 SVC_OPERATION_DISABLED. */
export class OperationDisabledException extends SvcException {
  constructor(operation: string, entity: string) {
    super('SVC_OPERATION_DISABLED', {
      detail: `${operation} is disabled on ${entity}. Use another operation, or enable it in the configuration.`,
      params: { operation, entity },
      entity,
    });
  }
}

export interface ConflictOptions {
  /**
   * Set on a unique violation only: the fields of the unique set the database named, in its order (empty when it
   * named none). It is not served; a batch reads it to find the items that caused the violation.
   */
  readonly unique?: readonly string[];
  /** The items the conflict names: a batch's, each field prefixed by its index (`[3].isbn`). */
  readonly errors?: readonly SvcErrorItem[];
}

/** 409 SVC_CONFLICT: a unique or foreign-key constraint refused the write. */
export class ConflictException extends SvcException {
  /** The fields of the violated unique set (`ConflictOptions.unique`); undefined for any other conflict. */
  readonly unique?: readonly string[];

  constructor(detail: string, cause?: unknown, options: ConflictOptions = {}) {
    super('SVC_CONFLICT', { detail, cause, ...(options.errors ? { errors: options.errors } : {}) });
    this.unique = options.unique;
  }
}

/** 409 SVC_ALREADY_DELETED. */
export class AlreadyDeletedException extends SvcException {
  constructor(entity: string, id: unknown) {
    super('SVC_ALREADY_DELETED', {
      detail: `${entity} ${JSON.stringify(id)} is already deleted. Restore it, or purge it to remove it for good.`,
      params: { entity, id },
      entity,
    });
  }
}

/** 409 SVC_NOT_DELETED. */
export class NotDeletedException extends SvcException {
  constructor(entity: string, id: unknown) {
    super('SVC_NOT_DELETED', {
      detail: `${entity} ${JSON.stringify(id)} is not deleted. Delete it first.`,
      params: { entity, id },
      entity,
    });
  }
}

/** 412 SVC_PRECONDITION_FAILED: If-Match does not match the current representation. */
export class PreconditionFailedException extends SvcException {
  constructor(entity: string, id: unknown) {
    super('SVC_PRECONDITION_FAILED', {
      detail: `${entity} ${JSON.stringify(id)} changed since the ETag you sent. Read it again and retry with the new ETag.`,
      params: { entity, id },
      entity,
    });
  }
}

/**
 * 400 SVC_BATCH_TOO_LARGE: a batch write over `batch.maxItems` items, a filter matching more than `batch.maxAffected`
 * rows, or a batch create whose body is over the JSON body limit, refused before any row changes. `params` name the
 * limit and the count (the body's: its size in bytes).
 */
export class BatchTooLargeException extends SvcException {
  constructor(limit: 'maxItems' | 'maxAffected' | 'bodyLimit', max: number, count: number, maxItems?: number) {
    const [detail, name] =
      limit === 'bodyLimit'
        ? [
            `The batch's body is ${count} bytes; the JSON body limit is ${max} bytes. Send fewer items a batch${maxItems ? ` (at most ${maxItems}, as batch.maxItems allows, and fewer where they are large)` : ''}.`,
            'bodyLimit',
          ]
        : limit === 'maxItems'
          ? [
              `The batch has ${count} items; batch.maxItems is ${max}. Split the items into batches of at most ${max}.`,
              `batch.${limit}`,
            ]
          : [
              `The batch has a filter matching ${count} rows; batch.maxAffected is ${max}. Narrow the filter, or send several batches of at most ${max}.`,
              `batch.${limit}`,
            ];
    super('SVC_BATCH_TOO_LARGE', { detail, params: { limit: name, max, count } });
  }
}

/** 412 SVC_PRECONDITION_UNSUPPORTED: If-Match on an operation that cannot honour it. */
export class PreconditionUnsupportedException extends SvcException {
  constructor(operation: string) {
    super('SVC_PRECONDITION_UNSUPPORTED', {
      detail: `${operation} does not take If-Match. Send the request without it.`,
      params: { operation },
    });
  }
}

/** 422 SVC_UNRESOLVED_RELATION: a referenced row does not exist. */
export class UnresolvedRelationException extends SvcException {
  constructor(detail: string, cause?: unknown) {
    super('SVC_UNRESOLVED_RELATION', { detail, cause });
  }
}

/** 500 SVC_PERSISTENCE_ERROR: a database failure Svc could not map. */
export class PersistenceException extends SvcException {
  constructor(cause: unknown) {
    super('SVC_PERSISTENCE_ERROR', { cause });
  }
}

/** 503 SVC_TRANSACTION_FAILED: deadlock or serialization failure after retries. */
export class TransactionFailedException extends SvcException {
  constructor(cause: unknown, retryAfterSeconds = 1) {
    super('SVC_TRANSACTION_FAILED', { cause, headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

/**
 * 503 SVC_DATABASE_UNAVAILABLE: the connection was lost, refused or shut down. Never retried inside Svc: a write whose
 * connection died (its COMMIT above all) may or may not have been applied, so the client decides.
 */
export class DatabaseUnavailableException extends SvcException {
  constructor(cause: unknown, retryAfterSeconds = 1) {
    super('SVC_DATABASE_UNAVAILABLE', { cause, headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

/** 500 SVC_INTERNAL: a bug. */
export class InternalException extends SvcException {
  constructor(cause: unknown) {
    super('SVC_INTERNAL', { cause });
  }
}

function summarize(errors: readonly SvcErrorItem[], fallback: string): string {
  if (errors.length === 0) return `${fallback}.`;
  if (errors.length === 1) return errors[0]?.detail ?? `${fallback}.`;
  return `${fallback}: ${errors.length} problems, listed in errors[].`;
}
