/** Runs `filter.apply` for one request; its result is server code, so a bad expression is a configuration error. */
import type { ApplyArgs, FilterConfig } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import type { FilterAllowlist } from './filter-allowlist';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import { resolveFilterExpression } from './resolve-filter-expression';

/**
 * Svc's own part of a `filter.apply` (a child collection's parent), already resolved: `{ [RESOLVED_PART]: node }`,
 * beside the app's expression under `expression`. Not exported from the package: an app writes expressions only.
 */
export const RESOLVED_PART = Symbol('svc.resolvedFilterPart');

export interface WithResolvedPart {
  readonly [RESOLVED_PART]: FilterNode;
  readonly expression?: unknown;
}

export async function resolveApplyFilter(
  apply: FilterConfig['apply'],
  allowlist: FilterAllowlist,
  args: ApplyArgs & { entity: string },
): Promise<FilterNode | undefined> {
  if (!apply) return undefined;
  const returned = await apply(args);
  if (returned === undefined) return undefined;
  const part = (returned as unknown as Partial<WithResolvedPart>)[RESOLVED_PART];
  const expression = part ? (returned as unknown as WithResolvedPart).expression : returned;
  if (expression === undefined) return part;
  const errors = new QueryErrors();
  const node = resolveFilterExpression(expression, allowlist, errors, 'filter.apply');
  try {
    errors.throwIfAny();
  } catch (error) {
    const detail = (error as { errors?: { detail: string }[] }).errors?.map((item) => item.detail).join(' ');
    throw new ConfigurationException({
      entity: args.entity,
      path: 'filter.apply',
      message: `returned an invalid filter: ${detail}`,
    });
  }
  return part ? andFilters(node, part) : node;
}
