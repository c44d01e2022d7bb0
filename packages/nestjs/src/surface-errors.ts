/**
 * Errors at the GraphQL and MCP endpoints that arise before their handler answers (a body that is not JSON, or over
 * the limit, a guard's refusal), answered in each protocol's own shape with the status the problem has: GraphQL's
 * `{ errors: [{ message, extensions: { code, problem } }] }`, and a JSON-RPC error (-32700 for a body that is not
 * JSON, -32600 for another refused request, -32603 for a fault of the server) with the problem as its `data`.
 */
import type { ProblemDetails } from '@svc/core';
import type { SvcHttpRequest as Request, SvcHttpResponse as Response } from './http-exchange';
import { writeError, type ErrorShape } from './problem-response';

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

/** The answer of each surface's errors: JSON in the protocol's own shape. */
const SHAPES: Readonly<Record<SvcSurfaceKind, ErrorShape>> = {
  graphql: { contentType: 'application/json; charset=utf-8', body: graphqlBody },
  mcp: { contentType: 'application/json; charset=utf-8', body: jsonRpcBody },
};

/** Writes `error` (already mapped to an Svc error where it can be) in the protocol of `kind`. */
export function writeSurfaceError(kind: SvcSurfaceKind, request: Request, response: Response, error: unknown): void {
  writeError(request, response, error, SHAPES[kind]);
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
