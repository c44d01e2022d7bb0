/** Tool results: a success as structured content plus the same JSON as text; a failure as the problem object. */
import { toProblemDetails, type ProblemDetails } from '@svc/core';
import { EXPOSE_INTERNALS, toSvcException } from '@svc/core/spi';

/** The result of a `tools/call`, as the MCP SDK takes it. */
export interface SvcToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** A success: `value` (made plain JSON, so dates are their ISO strings) as structured content and as text. */
export function successResult(value: unknown): SvcToolResult {
  const text = JSON.stringify(value ?? {});
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

/** A refused or failed call: `isError` with the problem object (its SVC_* code) as structured content and as text. */
export function problemResult(error: unknown): SvcToolResult {
  const exception = toSvcException(error);
  const exposeInternals = (exception as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS] === true;
  const problem: ProblemDetails = toProblemDetails(exception, { exposeInternals });
  const text = JSON.stringify(problem);
  return {
    content: [{ type: 'text', text }],
    structuredContent: JSON.parse(text) as Record<string, unknown>,
    isError: true,
  };
}
