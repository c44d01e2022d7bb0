/**
 * Handler-shaped building blocks for `findMany`: the built-in handlers (they read the request's own
 * `context.repository`, or an adapter passed in) and `withListMeta`, which adds a contributor's keys to `meta`.
 */
import type { OperationHandler, SvcOperationInput } from '../config/entity-config';
import { ConfigurationException } from '../errors/configuration-exception';
import { NotFoundException } from '../errors/svc-exception';
import type { Row, RowRepository } from '../persistence/repository-adapter';
import { andFilters } from '../persistence/query-ast';
import type { ListReadPlan } from '../query/resolve-list-query';
import type { SvcContext } from '../config/svc-context';

/** What a findMany handler returns. */
export interface ListResult {
  readonly entities: Row[];
  readonly total: number | null;
  readonly meta?: Record<string, unknown>;
}

export type ListMetaContributor = (
  result: ListResult,
  context: SvcContext,
) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;

/** Any handler's context: a typed one (`HandlerContext<Book>`) as well, whose repository reads the same rows. */
type AnyContext = SvcContext<unknown>;

function repositoryOf(context: AnyContext, adapter?: RowRepository): RowRepository {
  const repository = adapter ?? (context.repository as RowRepository | undefined);
  if (!repository)
    throw new ConfigurationException({ message: 'a built-in handler needs context.repository or an adapter.' });
  return repository;
}

/** The built-in findMany and findOne as handlers; pass an adapter to read another repository than the request's. */
export function createBuiltInHandlers(adapter?: RowRepository) {
  return {
    async findMany(input: SvcOperationInput, context: AnyContext): Promise<ListResult> {
      const plan = input.query as ListReadPlan;
      const result = await repositoryOf(context, adapter).findMany({
        where: andFilters(plan.where, plan.after),
        ...(plan.after ? { countWhere: plan.where } : {}),
        sort: plan.sort,
        limit: plan.limit,
        offset: plan.offset,
        count: plan.count,
        view: plan.view,
        ...(plan.exactKeys?.length ? { exactKeys: plan.exactKeys } : {}),
      });
      const page = plan.finish ? plan.finish(result.rows, result.exact) : { rows: result.rows };
      return { entities: page.rows, total: result.total, ...(page.meta ? { meta: page.meta } : {}) };
    },
    async findOne(input: SvcOperationInput, context: AnyContext): Promise<Row> {
      const repository = repositoryOf(context, adapter);
      const key = input.key ?? (input.id as Record<string, unknown>);
      const row = await repository.findOne({ key, view: 'live' });
      if (!row) throw new NotFoundException(repository.metadata.name, Object.values(key).join(','));
      return row;
    },
  };
}

/** The built-in handlers over the request's own repository. */
export const builtInHandlers = createBuiltInHandlers();

/** Wraps a findMany handler: the contributor's keys win over the handler's own `meta`; an empty result leaves it out. */
export function withListMeta(handler: OperationHandler, contributor: ListMetaContributor): OperationHandler {
  return async (input, context) => {
    const result = (await handler(input, context)) as Partial<ListResult> | undefined;
    if (!result || !Array.isArray(result.entities) || !('total' in result)) {
      throw new ConfigurationException({
        path: `operations.${String(context['operation'])}.handler`,
        message: 'is wrapped by withListMeta, so it must return { entities, total }.',
      });
    }
    const added = await contributor(result as ListResult, context);
    return { ...result, meta: { ...(result.meta ?? {}), ...(added ?? {}) } };
  };
}
