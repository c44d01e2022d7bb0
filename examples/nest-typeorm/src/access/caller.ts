/** Who is calling: the user a Nest guard puts on the request, or the one a programmatic call passes in its context. */
import type { SvcContext } from '@svc/core';

/** The roles the bookstore knows. */
export const ROLES = ['editor', 'reader'] as const;

export type Role = (typeof ROLES)[number];

export interface Caller {
  readonly role: Role;
}

/**
 * The caller of an operation: `request.user` over HTTP (set by `RoleGuard`), else `context.user` of a programmatic
 * call (`service.run(id, input, { context: { user } })`). A programmatic call has no `request`, so it is read
 * optionally; a call that names no user has no caller.
 */
export function callerOf(context: SvcContext): Caller | undefined {
  const request = context.request as { user?: Caller } | undefined;
  return request?.user ?? (context['user'] as Caller | undefined);
}
