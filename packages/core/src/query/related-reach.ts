/**
 * How far a caller reaches into a related entity's rows (an include, a GraphQL relation field, a relation path in a
 * filter or a sort): only where that entity's policy lets this caller list it (asked with `operation: 'findMany'`,
 * once per request and entity), and only with the fields the caller's role reads there (`access`).
 */
import type { PolicyFunction } from '../config/entity-config';
import type { SvcContext } from '../config/svc-context';
import { askPolicy } from '../config/ask-policy';

/** What the answer needs of the related entity: its list policy, and its role views. */
export interface ReachableEntity {
  readonly listOperation?: { readonly policy?: PolicyFunction };
  readonly itemOperation?: { readonly policy?: PolicyFunction };
  readonly access?: {
    readonly role: (context: SvcContext) => string | undefined;
    readonly views: ReadonlyMap<string, unknown>;
  };
}

const answers = new WeakMap<object, Map<ReachableEntity, Promise<boolean>>>();

/** Whether this caller may list the entity's rows: its findMany policy (or its read by id's), asked once per context. */
export function mayList(entity: ReachableEntity, context: SvcContext): Promise<boolean> {
  const policy = (entity.listOperation ?? entity.itemOperation)?.policy;
  if (!policy) return ALLOWED;
  let known = answers.get(context);
  if (!known) answers.set(context, (known = new Map()));
  let answer = known.get(entity);
  if (!answer) {
    answer = askPolicy(policy, { operation: 'findMany', context });
    known.set(entity, answer);
  }
  return answer;
}

/** The entity as this caller's role sees it (`access`): the view of the role `access.role` names, else the entity. */
export function roleView<E extends ReachableEntity>(entity: E, context: SvcContext): E {
  const access = entity.access;
  if (!access) return entity;
  const role = access.role(context);
  return ((role !== undefined && access.views.get(role)) as E | undefined) || entity;
}

const ALLOWED = Promise.resolve(true);
