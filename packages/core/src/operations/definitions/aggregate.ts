/**
 * aggregate: `GET /aggregate`, counts, sums, averages, minimums and maximums over the rows the caller may see, grouped
 * by the fields the config lists, computed by the database under findMany's allowlists, limits and scope.
 */
import { resultCacheStage } from '../../pipeline/stages/result-cache-stage';
import { aggregatePlanStage, aggregateReadStage } from '../aggregate-read';
import { defineOperation, notReplaceable } from '../operation-definition';
import { policyIfAny, queryGateIfAny } from './flow-parts';

export const aggregate = defineOperation({
  id: 'aggregate',
  kind: 'read',
  cardinality: 'many',
  route: { method: 'GET', path: 'aggregate', status: 200 },
  takes: { id: false, body: 'none', query: 'aggregate' },
  answers: 'aggregate',
  conditional: { ifNoneMatch: false, ifMatch: 'none' },
  settings: ['delete', 'cache', 'errors'],
  schemaParts: ['query'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  optIn: { path: 'aggregate', on: (config) => config.aggregate !== undefined },
  wording: {
    verb: 'Aggregate',
    summary: ({ many }) => `Count and aggregate ${many}`,
    sentence: ({ one }) =>
      `Count ${one} rows and compute sums, averages, minimums and maximums over them, in groups, computed by the database; takes the list's filter and search.`,
  },
  hints: { readOnly: true, idempotent: true },
  stages: (_entity, op) => [
    ...policyIfAny(op, 'nothing'),
    ...queryGateIfAny(op),
    resultCacheStage([aggregatePlanStage, aggregateReadStage], { rowPolicy: false }),
  ],
  replaced: notReplaceable,
});
