/**
 * The one answer to "which rows of this entity may this caller see, for this operation": the entity's `filter.apply`
 * run for the caller and resolved against its allowlist (undefined: every row). Every path asks it here: the row a
 * single-row operation addresses, the guard and the read-back of a write, references by id, includes, relation
 * paths, relation writes, `context.repository` and realtime events. An answer is kept for the rest of the call that
 * asked (its `memo`), so one call runs each entity's `filter.apply` once.
 */
import type { ApplyArgs, FilterConfig } from '../config/entity-config';
import type { FilterNode } from '../persistence/query-ast';
import type { FilterAllowlist } from './filter-allowlist';
import { resolveApplyFilter } from './resolve-apply-filter';

/** What the question needs of an entity: its name, its `filter.apply` and the allowlist the answer is read against. */
export interface ScopedEntity {
  readonly name: string;
  readonly filterApply?: FilterConfig['apply'];
  readonly serverFilter: FilterAllowlist;
}

const answers = new WeakMap<object, Map<FilterAllowlist, Promise<FilterNode | undefined>>>();

/**
 * @param question the operation and the caller's context, as `filter.apply` is given them
 * @param memo what the answer is kept on: the call that asks (by default the question itself, which a caller makes
 *   afresh when the answer must be asked again, as for each realtime event)
 */
export function visibleRows(
  entity: ScopedEntity,
  question: ApplyArgs,
  memo: object = question,
): Promise<FilterNode | undefined> {
  const apply = entity.filterApply;
  if (!apply) return NO_SCOPE;
  let known = answers.get(memo);
  if (!known) answers.set(memo, (known = new Map()));
  let answer = known.get(entity.serverFilter);
  if (!answer) {
    const { operation, context } = question;
    answer = resolveApplyFilter(apply, entity.serverFilter, { operation, context, entity: entity.name });
    known.set(entity.serverFilter, answer);
  }
  return answer;
}

const NO_SCOPE: Promise<undefined> = Promise.resolve(undefined);
