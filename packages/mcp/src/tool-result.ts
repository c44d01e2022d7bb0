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

/**
 * A success: `value` as structured content and as its JSON text. The structured content is the value itself, not a
 * parse of the text: it reaches the client as JSON encoded by the same `JSON.stringify` (dates as their ISO strings),
 * so the two say the same, and a page is not parsed back for nothing.
 */
export function successResult(value: unknown): SvcToolResult {
  const structuredContent = (value ?? {}) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
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
