/** Who is calling: the user `JwtAuthGuard` puts on the request, or the one a call in code passes in its context. */
import type { SvcContext } from '@svc/core';

/** The roles a token may name. */
export const ROLES = ['editor', 'reader'] as const;

export type Role = (typeof ROLES)[number];

export interface Caller {
  /** The token's subject: who signed in. */
  readonly id: string;
  readonly role: Role;
  /** The shop the token was issued for; a token without one reaches the catalogue only. */
  readonly tenant?: string;
}

/** `request.user` over HTTP, else `context.user` of a call in code (which has no request); undefined when anonymous. */
export function callerOf(context: SvcContext): Caller | undefined {
  const request = context.request as { user?: Caller } | undefined;
  return request?.user ?? (context['user'] as Caller | undefined);
}
