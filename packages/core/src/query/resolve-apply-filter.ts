/** Runs `filter.apply` for one request; its result is server code, so a bad expression is a configuration error. */
import type { ApplyArgs, FilterConfig } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import type { FilterAllowlist } from './filter-allowlist';
import type { FilterNode } from '../persistence/query-ast';
import { QueryErrors } from '../errors/query-errors';
import { resolveFilterExpression } from './resolve-filter-expression';

export async function resolveApplyFilter(
  apply: FilterConfig['apply'],
  allowlist: FilterAllowlist,
  args: ApplyArgs & { entity: string },
): Promise<FilterNode | undefined> {
  if (!apply) return undefined;
  const expression = await apply(args);
  if (expression === undefined) return undefined;
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
  return node;
}
