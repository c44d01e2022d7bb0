/** Who is calling: the user the auth guard puts on the request, or the one a programmatic call passes in its context. */
import type { SvcContext } from '@svc/core';

/**
 * The roles the bookstore knows: a reader reads, an editor also writes, an admin also sets what only staff may (a
 * book's supplier cost it reads, and `featured`, which it alone writes: see `src/controllers/books.controller.ts`).
 */
export const ROLES = ['reader', 'editor', 'admin'] as const;

export type Role = (typeof ROLES)[number];

/** The roles that may write: editors and admins. */
export function writesAs(role: Role | undefined): boolean {
  return role === 'editor' || role === 'admin';
}

export interface Caller {
  /** The token's subject: who signed in. */
  readonly id: string;
  readonly role: Role;
  /** The tenant the token was issued for, in an app that serves several (the tenancy app); the bookstore has none. */
  readonly tenant?: string;
}

/**
 * The caller of an operation: `request.user` over HTTP (set by `JwtAuthGuard` from a verified token), else
 * `context.user` of a programmatic call (`service.run(id, input, { context: { user } })`). A programmatic call has
 * no `request`, so it is read optionally; a call that names no user has no caller.
 */
export function callerOf(context: SvcContext): Caller | undefined {
  const request = context.request as { user?: Caller } | undefined;
  return request?.user ?? (context['user'] as Caller | undefined);
}
