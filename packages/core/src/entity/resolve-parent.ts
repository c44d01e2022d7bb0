/**
 * `parent`: an entity served as a child collection under a row of another (`/articles/:slug/comments`). The route's
 * parameter names the parent row (looked up through the parent entity's own scope: one the caller may not see answers
 * 404 naming the parent); every operation then reaches only that parent's children, and a create makes its row one.
 * Resolved at bootstrap into the entity's `filter.apply` and `set.create`, so every path that asks them (reads, the
 * guards and read-backs of writes, batches, references) keeps to the parent.
 */
import type { EntityConfig, FilterConfig, SetFunction } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import { NotFoundException } from '../errors/svc-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { andFilters } from '../persistence/query-ast';
import type { SvcContext } from '../config/svc-context';
import { visibleRows } from '../query/visible-rows';
import type { ForcedValues } from '../schema/forced-values';
import type { ResolvedEntity } from './resolved-entity';

/** `parent` in an entity config. */
export interface ParentConfig {
  /** The owning to-one relation to the parent (`article`). */
  readonly relation: string;
  /** The route parameter that names the parent (`slug` in `articles/:slug/comments`). */
  readonly param: string;
  /** The parent's column the parameter holds. @default the parent's primary key */
  readonly field?: string;
}

type Apply = NonNullable<FilterConfig['apply']>;

/** The parent's key for one request, looked up once per context: undefined where no route parameter names one. */
const parentKeys = new WeakMap<object, Promise<unknown>>();

export function resolveParent(
  entity: string,
  metadata: EntityMetadata,
  config: EntityConfig,
  peers: ((target: Function) => ResolvedEntity | undefined) | undefined,
  forced: ForcedValues,
): { filterApply?: Apply; forced: ForcedValues } {
  const parent = config.parent as ParentConfig | undefined;
  if (parent === undefined) return { filterApply: config.filter?.apply, forced };
  const fail = (path: string, message: string): never => {
    throw new ConfigurationException({ entity, path: `parent.${path}`, message });
  };
  const relation = metadata.relations.find((candidate) => candidate.property === parent.relation);
  if (!relation) fail('relation', `'${String(parent.relation)}' is not a relation of ${entity}.`);
  if (relation!.kind !== 'many-to-one' && !(relation!.kind === 'one-to-one' && relation!.joinColumns.length > 0))
    fail(
      'relation',
      `'${parent.relation}' must be an owning to-one relation (many-to-one), the child's link to its parent.`,
    );
  if (typeof parent.param !== 'string' || !/^\w+$/.test(parent.param))
    fail('param', 'must name the route parameter that holds the parent (`slug` in `articles/:slug/comments`).');
  const target = relation!.target;
  const parentEntity = (): ResolvedEntity => {
    const served = peers?.(target);
    if (!served)
      throw new ConfigurationException({
        entity,
        path: 'parent.relation',
        message: `${relation!.targetName} is served by no controller or service of this app; the parent must be.`,
      });
    return served;
  };
  const keyOf = (context: SvcContext): Promise<unknown> => {
    const value = (context.request as { params?: Record<string, unknown> } | undefined)?.params?.[parent.param];
    if (value === undefined) return Promise.resolve(undefined);
    let known = parentKeys.get(context);
    if (!known) {
      known = lookUp(parentEntity(), parent.field, value, context);
      parentKeys.set(context, known);
    }
    return known;
  };
  const own = config.filter?.apply;
  const filterApply: Apply = async (args) => {
    const key = await keyOf(args.context);
    const mine = own ? await own(args) : undefined;
    if (key === undefined) return mine;
    const pk = parentEntity().metadata.primaryKeys[0]!;
    const scope = { [`${parent.relation}.${pk}`]: { eq: key } };
    return (mine ? { and: [mine, scope] } : scope) as ReturnType<Apply>;
  };
  const withParent =
    (set: SetFunction | undefined): SetFunction =>
    async (args) => {
      const values = set ? await set(args) : undefined;
      const key = await keyOf(args.context);
      if (key === undefined) return values;
      const pk = parentEntity().metadata.primaryKeys[0]!;
      return { ...values, [parent.relation]: { [pk]: key } };
    };
  return { filterApply, forced: { ...forced, create: withParent(forced.create) } };
}

/** The key of the parent row the parameter names, inside the parent's scope for a read; 404 naming it otherwise. */
async function lookUp(parent: ResolvedEntity, field: string | undefined, value: unknown, context: SvcContext) {
  const pk = parent.metadata.primaryKeys[0]!;
  const column = field ?? pk;
  const scope = await visibleRows(parent, { operation: 'findOne', context });
  const kind = parent.metadata.columns.find((candidate) => candidate.property === column)?.kind;
  const numeric = kind === 'integer' || kind === 'number' || kind === 'bigint';
  const typed = numeric ? Number(value) : String(value);
  if (numeric && !Number.isFinite(typed)) throw new NotFoundException(parent.name, String(value));
  const { rows } = await parent.adapter.findMany({
    where: andFilters(scope, { kind: 'condition', field: column, operator: 'eq', value: typed }),
    sort: [],
    limit: 1,
    count: false,
    view: parent.softDeleteOnReads ? 'live' : 'all',
  });
  if (rows.length === 0) throw new NotFoundException(parent.name, String(value));
  return rows[0]![pk];
}
