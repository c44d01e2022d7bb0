/** The stages of `aggregate`: resolve the query against the entity's aggregate and list configs, then group and count. */
import type { AggregateQuery } from '../config/entity-config';
import { stage } from '../pipeline/stage';
import type { AggregateGroup } from '../persistence/repository-adapter';
import type { QueryPairs } from '../query/parse-query-string';
import {
  resolveProgrammaticAggregateQuery,
  resolveWireAggregateQuery,
  type AggregatePlan,
} from '../query/resolve-aggregate-query';

/** plan: the aggregate query (query-string pairs or a programmatic query) resolved against the configs. */
export const aggregatePlanStage = stage('plan', { phase: 'plan', gives: ['aggregatePlan'] }, async (call, state) => {
  const { list } = call.operation;
  const aggregate = call.entity.aggregate;
  if (!list || !aggregate) throw new Error(`${call.entity.name}.${call.operation.id} has no aggregate config.`);
  const args = { list, aggregate, operation: call.operation.id, context: call.context };
  const query = call.request.query;
  state.aggregatePlan = Array.isArray(query)
    ? await resolveWireAggregateQuery(query as QueryPairs, args)
    : await resolveProgrammaticAggregateQuery((query ?? {}) as AggregateQuery, args);
});

/** read: the groups of one page and their count, computed by the database; then the answer. */
export const aggregateReadStage = stage(
  'read',
  { phase: 'act', needs: ['aggregatePlan'], gives: ['response'] },
  async (call, state) => {
    const plan = state.aggregatePlan;
    const { groups, total } = await call.entity.adapter.aggregate({ ...plan, count: true });
    const items = groups.map((group) => aggregateItem(group, plan));
    state.response = { status: 200, body: { items, limit: plan.limit, offset: plan.offset, total }, headers: {} };
  },
);

/** `{ group, count, sum: { pages }, ... }`: each function asked for, by field, in the order asked. */
function aggregateItem(group: AggregateGroup, plan: AggregatePlan): Record<string, unknown> {
  const item: Record<string, unknown> = { group: { ...group.key }, count: group.count };
  for (const { fn, field } of plan.measures) {
    const byField = (item[fn] ??= {}) as Record<string, unknown>;
    byField[field] = group.values[`${fn}.${field}`] ?? null;
  }
  return item;
}
