/** The per-request context: what policy, `apply` functions and handlers see. */
import type { ScopedRepository } from '../persistence/scoped-repository';

/**
 * The types an app gives the context, by declaration merging; every policy, `apply` function and handler then sees
 * them typed, with no cast:
 *
 * ```ts
 * declare module '@svc/core' {
 *   interface SvcContextTypes {
 *     request: import('express').Request & { user?: { id: number; roles: string[] } };
 *   }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SvcContextTypes {}

/** `SvcContextTypes['request']` when the app declares it, else unknown. */
export type SvcRequest = SvcContextTypes extends { readonly request: infer R } ? R : unknown;

/** The context of a call; `Repository` is its `repository`'s type (a handler's is typed by the entity). */
export interface SvcContext<Repository = ScopedRepository> {
  /** The HTTP request, when the call came over HTTP (typed through `SvcContextTypes`); unset in programmatic calls. */
  readonly request?: SvcRequest;
  /** The entity's own repository adapter, scoped to the request (its transaction, filter.apply, soft delete). */
  readonly repository?: Repository;
  /** Anything the application puts in (the user, a tenant id, ...). */
  readonly [key: string]: unknown;
}
