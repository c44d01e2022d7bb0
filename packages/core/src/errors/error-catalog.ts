/** The one catalog of Svc error codes: each code binds one HTTP status, a title and a stable type URI. */

export const ERROR_TYPE_BASE = 'https://svc.dev/errors/';

export interface ErrorCatalogEntry {
  readonly status: number;
  readonly title: string;
  /** What the client should do next; used when an exception brings no detail of its own. */
  readonly detail: string;
}

export const ERROR_CATALOG = {
  SVC_QUERY_INVALID: {
    status: 400,
    title: 'Invalid query',
    detail: 'Fix the query parameters named in errors[] and send the request again.',
  },
  SVC_QUERY_UNSUPPORTED_PARAM: {
    status: 400,
    title: 'Unsupported query parameter',
    detail: 'Remove the parameter named in errors[]; this resource does not take it.',
  },
  SVC_VALIDATION_FAILED: {
    status: 400,
    title: 'Validation failed',
    detail: 'Fix the body fields named in errors[] and send the request again.',
  },
  SVC_BATCH_TOO_LARGE: {
    status: 400,
    title: 'Batch too large',
    detail: 'Send fewer items, or a filter that matches fewer rows, in each batch.',
  },
  SVC_MALFORMED_REQUEST: {
    status: 400,
    title: 'Malformed request',
    detail: 'Send a well-formed JSON body with Content-Type application/json.',
  },
  SVC_FORBIDDEN: {
    status: 403,
    title: 'Forbidden',
    detail: 'The policy for this operation refused the request.',
  },
  SVC_NOT_FOUND: {
    status: 404,
    title: 'Not found',
    detail: 'No row with this id exists, or it is outside your scope.',
  },
  SVC_ROUTE_NOT_FOUND: {
    status: 404,
    title: 'Route not found',
    detail: 'Check the method and path; no route matches them.',
  },
  SVC_OPERATION_DISABLED: {
    status: 405,
    title: 'Operation disabled',
    detail: 'This operation is disabled on this resource.',
  },
  SVC_CONFLICT: {
    status: 409,
    title: 'Conflict',
    detail: 'The write conflicts with existing data; change the conflicting values and retry.',
  },
  SVC_ALREADY_DELETED: {
    status: 409,
    title: 'Already deleted',
    detail: 'The row is already deleted; restore it first or purge it.',
  },
  SVC_NOT_DELETED: {
    status: 409,
    title: 'Not deleted',
    detail: 'The row is not deleted; delete it first.',
  },
  SVC_PRECONDITION_FAILED: {
    status: 412,
    title: 'Precondition failed',
    detail: 'The row changed since you read it; read it again and retry with the new ETag.',
  },
  SVC_PRECONDITION_UNSUPPORTED: {
    status: 412,
    title: 'Precondition unsupported',
    detail: 'This operation does not take If-Match; send the request without it.',
  },
  SVC_PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'Payload too large',
    detail: 'Send a smaller body.',
  },
  SVC_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Unsupported media type',
    detail: 'Send the body as application/json.',
  },
  SVC_UNRESOLVED_RELATION: {
    status: 422,
    title: 'Unresolved relation',
    detail: 'A referenced row does not exist; reference an existing row.',
  },
  SVC_HTTP_ERROR: {
    status: 400,
    title: 'HTTP error',
    detail: 'The request could not be served as sent.',
  },
  SVC_CONFIG_INVALID: {
    status: 500,
    title: 'Invalid configuration',
    detail: 'The service is misconfigured; the operator must fix its configuration.',
  },
  SVC_PERSISTENCE_ERROR: {
    status: 500,
    title: 'Persistence error',
    detail: 'The database failed to serve the request; retry later.',
  },
  SVC_INTERNAL: {
    status: 500,
    title: 'Internal error',
    detail: 'An unexpected error occurred; retry later.',
  },
  SVC_TRANSACTION_FAILED: {
    status: 503,
    title: 'Transaction failed',
    detail: 'The transaction could not complete because of concurrent writes; retry after the Retry-After delay.',
  },
  SVC_DATABASE_UNAVAILABLE: {
    status: 503,
    title: 'Database unavailable',
    detail: 'The database connection was lost or refused. Retry the request after the Retry-After delay.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type SvcErrorCode = keyof typeof ERROR_CATALOG;

/** The stable problem type URI of a code. */
export function errorTypeUri(code: SvcErrorCode): string {
  return ERROR_TYPE_BASE + code.toLowerCase().replace(/_/g, '-');
}
