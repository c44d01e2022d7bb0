/** The stages of `count`: resolve the list grammar's filter, search and row view, then count the rows they match. */
import type { CountQuery } from '../config/entity-config';
import { stage } from '../pipeline/stage';
import type { QueryPairs } from '../query/parse-query-string';
import { resolveCountQuery } from '../query/resolve-count-query';

/** plan: the count query (query-string pairs or a programmatic query) resolved against the list config. */
export const countPlanStage = stage('plan', { phase: 'plan', gives: ['countPlan'] }, async (call, state) => {
  const { list } = call.operation;
  if (!list) throw new Error(`${call.entity.name}.${call.operation.id} has no list config.`);
  const query = (call.request.query ?? {}) as QueryPairs | CountQuery;
  state.countPlan = await resolveCountQuery(query, { list, operation: call.operation.id, context: call.context });
});

/**
 * read: how many rows match, counted by the database in one statement (the adapter's aggregate of one group over the
 * whole match set, which answers 0 when nothing matches); then the answer.
 */
export const countReadStage = stage(
  'read',
  { phase: 'act', needs: ['countPlan'], gives: ['response'] },
  async (call, state) => {
    const { where, view } = state.countPlan;
    const { groups } = await call.entity.adapter.aggregate({
      ...(where ? { where } : {}),
      view,
      groupBy: [],
      measures: [],
      sort: [],
      count: false,
    });
    state.response = { status: 200, body: { total: groups[0]?.count ?? 0 }, headers: {} };
  },
);
