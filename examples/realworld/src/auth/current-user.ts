/** The signed-in user: what a verified token names, on `request.user`. */
import type { SvcContext } from '@svc/core';

export interface CurrentUser {
  readonly id: number;
  readonly username: string;
}

/** What a Conduit token carries besides its times. */
export interface TokenClaims {
  readonly sub: number;
  readonly username: string;
}

export interface AuthenticatedRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  user?: CurrentUser;
}

/** The caller of a Svc operation, if signed in (for `filter.apply`, `set`, policies and computed fields). */
export function currentUserOf(context: Pick<SvcContext, 'request'>): CurrentUser | undefined {
  return (context.request as AuthenticatedRequest | undefined)?.user;
}

/** Whether the caller wrote `row` (an article or a comment): its `authorId` is the caller's. */
export function isAuthorOf(row: Readonly<Record<string, unknown>> | undefined, context: Pick<SvcContext, 'request'>) {
  return row?.['authorId'] !== undefined && row['authorId'] === currentUserOf(context)?.id;
}
