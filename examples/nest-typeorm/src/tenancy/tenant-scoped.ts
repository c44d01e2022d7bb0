/**
 * Tenancy in one place: which rows a caller reaches, which tenant a new row belongs to, and which cached reads callers
 * share. Every entity of the tracker takes its config through `tenantScoped`, and the module partitions the result
 * cache with `tenantCacheKey`, so no controller handles the tenant itself.
 */
import type { ApplyArgs, EntityConfig, FilterExpression, PolicyFunction, SetFunction, SvcContext } from '@svc/core';
import { callerOf } from '../access/caller';

/** The column that says whose a row is, on every tenant-scoped entity. */
export const TENANT_COLUMN = 'tenantId';

const READS: ReadonlySet<string> = new Set(['findMany', 'findOne']);

/** The caller's tenant: the `tenant` claim of its verified token, never anything the request itself says. */
export function tenantOf(context: SvcContext): string | undefined {
  return callerOf(context)?.tenant;
}

/**
 * A tenant's members may read its rows and its editors may write them. A caller without a tenant (no token, or a
 * token that names none) is refused everything with 403, the event streams and the agent tools included.
 */
export const tenantMembers: PolicyFunction = ({ operation, context }) => {
  const caller = callerOf(context);
  if (caller?.tenant === undefined) return false;
  return READS.has(operation) || caller.role === 'editor';
};

/**
 * The rows of the caller's tenant: ANDed into every read, every write's row lookup and every relation that reaches
 * this entity. The policy refuses a caller without a tenant first; should a call get here without one, it matches no
 * row (the column is never null) rather than every row.
 */
function ownTenant({ context }: ApplyArgs): FilterExpression {
  const tenant = tenantOf(context);
  return { [TENANT_COLUMN]: tenant === undefined ? { isNull: true } : { eq: tenant } };
}

/** A new row belongs to the caller's tenant, whatever else the body says. */
const pinTenant: SetFunction = ({ context }) => {
  const tenant = tenantOf(context);
  return tenant === undefined ? undefined : { [TENANT_COLUMN]: tenant };
};

/** The result-cache partition (`SvcModule`'s `cacheKey`): a cached read is served to callers of its tenant only. */
export function tenantCacheKey(context: SvcContext): string | undefined {
  return tenantOf(context);
}

export interface TenantScopedConfig extends EntityConfig {
  /**
   * The fields a client may write on create, replace and patch. The tenant column is not one of them: a body that
   * names it is a 400 (`not_writable`), and `set` writes it instead.
   */
  readonly writable: readonly string[];
}

/** The entity's config with its tenant scope, its pinned tenant column, its write slots and the tenant policy. */
export function tenantScoped({ writable, ...config }: TenantScopedConfig): EntityConfig {
  if (writable.includes(TENANT_COLUMN)) {
    throw new Error(`tenantScoped: '${TENANT_COLUMN}' must not be writable; the caller's token decides it.`);
  }
  return {
    ...config,
    policy: tenantMembers,
    filter: { ...config.filter, apply: ownTenant },
    set: { create: pinTenant },
    schema: { ...config.schema, input: { create: writable, update: writable } },
  };
}
