/** The per-request context: what policy, `apply` functions and handlers see. */
import type { ScopedRepository } from '../persistence/scoped-repository';

export interface SvcContext {
  /** The HTTP request, when the call came over HTTP. */
  readonly request?: unknown;
  /** The entity's own repository adapter, scoped to the request (its transaction, filter.apply, soft delete). */
  readonly repository?: ScopedRepository;
  /** Anything the application puts in (the user, a tenant id, ...). */
  readonly [key: string]: unknown;
}
