/**
 * Errors at the GraphQL and MCP endpoints that arise before their handler answers (a body that is not JSON, or over
 * the limit, a guard's refusal), answered in each protocol's own shape with the status the problem has: GraphQL's
 * `{ errors: [{ message, extensions: { code, problem } }] }`, and a JSON-RPC error (-32700 for a body that is not
 * JSON, -32600 for another refused request, -32603 for a fault of the server) with the problem as its `data`.
 */
import { toProblemDetails, toSvcException, type ProblemDetails } from '@svc/core';
import {
  headersSent,
  requestUrl,
  sendNow,
  setHeader,
  type SvcHttpRequest as Request,
  type SvcHttpResponse as Response,
} from './http-exchange';
import { logServerFault, requestIdOf } from './problem-response';

/** The surfaces beyond REST that answer their errors in a protocol of their own. */
export type SvcSurfaceKind = 'graphql' | 'mcp';

const SURFACE_KIND = Symbol('svc.surfaceKind');

/** Marks a surface controller class with the protocol it answers in. */
export function markSurface(controller: Function, kind: SvcSurfaceKind): void {
  Object.defineProperty(controller, SURFACE_KIND, { value: kind });
}

/** The protocol a controller class answers in, when it is one of Svc's surface controllers. */
export function surfaceKindOf(controller: Function): SvcSurfaceKind | undefined {
  return (controller as unknown as Record<symbol, SvcSurfaceKind | undefined>)[SURFACE_KIND];
}

/** JSON-RPC's code for a request that is not JSON. */
const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_INVALID_REQUEST = -32600;
const JSON_RPC_INTERNAL_ERROR = -32603;

/** Writes `error` (already mapped to an Svc error where it can be) in the protocol of `kind`. */
export function writeSurfaceError(kind: SvcSurfaceKind, request: Request, response: Response, error: unknown): void {
  const exception = toSvcException(error);
  const problem = toProblemDetails(exception, { instance: requestUrl(request), requestId: requestIdOf(request) });
  logServerFault(request, problem, exception);
  if (headersSent(response)) return;
  setHeader(response, 'X-Request-Id', String(problem.requestId));
  for (const [name, value] of Object.entries(exception.headers ?? {})) setHeader(response, name, value);
  setHeader(response, 'Content-Type', 'application/json; charset=utf-8');
  sendNow(response, problem.status, JSON.stringify(kind === 'graphql' ? graphqlBody(problem) : jsonRpcBody(problem)));
}

function graphqlBody(problem: ProblemDetails): unknown {
  return { errors: [{ message: problem.detail, extensions: { code: problem.code, problem } }] };
}

function jsonRpcBody(problem: ProblemDetails): unknown {
  const code =
    problem.code === 'SVC_MALFORMED_REQUEST'
      ? JSON_RPC_PARSE_ERROR
      : problem.status >= 500
        ? JSON_RPC_INTERNAL_ERROR
        : JSON_RPC_INVALID_REQUEST;
  return { jsonrpc: '2.0', error: { code, message: problem.detail, data: problem }, id: null };
}
