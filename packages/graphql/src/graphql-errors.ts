/**
 * Svc's errors at the GraphQL edge: a `GraphQLError` whose message is the problem's `detail` and whose `extensions`
 * hold `code` (the SVC_* code) and `problem` (the problem-details object REST would answer). Anything that is not an
 * Svc error is SVC_INTERNAL, so nothing unplanned leaks.
 */
import { GraphQLError } from 'graphql';
import { toProblemDetails, type SvcException } from '@svc/core';
import { EXPOSE_INTERNALS, toSvcException } from '@svc/core/spi';

/** Called with every error a resolver answers; the Nest binding logs the 5xx ones. */
export type SvcErrorListener = (exception: SvcException) => void;

export function toGraphqlError(error: unknown, onError?: SvcErrorListener): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const exception = toSvcException(error);
  onError?.(exception);
  const exposeInternals = (exception as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS] === true;
  const problem = toProblemDetails(exception, { exposeInternals });
  return new GraphQLError(problem.detail, {
    originalError: exception,
    extensions: { code: problem.code, problem },
  });
}
