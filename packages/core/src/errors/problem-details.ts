/** Maps any thrown value to an RFC 9457 problem-details body. */
import { ERROR_CATALOG, errorTypeUri, type SvcErrorCode } from './error-catalog';
import { InternalException, SvcException, type SvcErrorItem } from './svc-exception';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: SvcErrorCode;
  /** The entity the error is about, where Svc knows it (an operation of that entity failed). */
  entity?: string;
  errors?: SvcErrorItem[];
  requestId?: string;
  params?: Record<string, unknown>;
  internals?: unknown;
}

export interface ProblemDetailsOptions {
  readonly instance?: string;
  readonly requestId?: string;
  /** Serve driver-level detail (`errors.exposeInternals`). */
  readonly exposeInternals?: boolean;
}

/** Wraps anything that is not an SvcException as SVC_INTERNAL, so nothing unplanned leaks. */
export function toSvcException(error: unknown): SvcException {
  return error instanceof SvcException ? error : new InternalException(error);
}

export function toProblemDetails(error: unknown, options: ProblemDetailsOptions = {}): ProblemDetails {
  const exception = toSvcException(error);
  const entry = ERROR_CATALOG[exception.code];
  const body: ProblemDetails = {
    type: errorTypeUri(exception.code),
    title: entry.title,
    status: exception.status,
    detail: exception.detail,
    code: exception.code,
  };
  if (options.instance !== undefined) body.instance = options.instance;
  if (exception.entity !== undefined) body.entity = exception.entity;
  if (exception.errors && exception.errors.length > 0) body.errors = [...exception.errors];
  if (exception.params) body.params = { ...exception.params };
  if (options.requestId !== undefined) body.requestId = options.requestId;
  if (options.exposeInternals && exception.cause !== undefined) body.internals = describeCause(exception.cause);
  return body;
}

function describeCause(cause: unknown): unknown {
  if (cause instanceof Error) {
    const extra = cause as Error & { code?: unknown; detail?: unknown; errno?: unknown };
    return { name: cause.name, message: cause.message, code: extra.code, detail: extra.detail, errno: extra.errno };
  }
  return String(cause);
}
