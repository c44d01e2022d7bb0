/** The per-request context: what policy, `apply` functions and handlers see. */
import type { RepositoryAdapter } from '../persistence/repository-adapter';

export interface SvcContext {
  /** The HTTP request, when the call came over HTTP. */
  readonly request?: unknown;
  /** The entity's own repository adapter. */
  readonly repository?: RepositoryAdapter;
  /** Anything the application puts in (the user, a tenant id, ...). */
  readonly [key: string]: unknown;
}
