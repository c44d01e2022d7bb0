/** `errors.format`: the app's own answer to an error Svc serves over REST, written from its problem object. */
import type { ProblemDetails } from './problem-details';

/** What `errors.format` answers with: sent as JSON at `status`, with `contentType` when it gives one. */
export interface ErrorAnswer {
  readonly status: number;
  /** Serialised with `JSON.stringify`. */
  readonly body: unknown;
  /** @default 'application/json; charset=utf-8' */
  readonly contentType?: string;
}

/**
 * Maps a problem (status, code, `errors[]`, `entity`, ...) to the app's error answer; `undefined` keeps Svc's
 * `application/problem+json`. Logs, codes, `X-Request-Id` and the exception's headers stay Svc's. GraphQL and MCP keep
 * their own error shapes.
 */
export type ErrorFormat = (problem: Readonly<ProblemDetails>) => ErrorAnswer | undefined;
