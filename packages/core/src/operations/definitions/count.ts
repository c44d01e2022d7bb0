/**
 * count: `GET /count`, how many rows the caller may see match the list's filter and search, counted by the database
 * under findMany's allowlists, limits, scope and row view; off unless the entity config says `count: true`.
 */
import { resultCacheStage } from '../../pipeline/stages/result-cache-stage';
import { countPlanStage, countReadStage } from '../count-read';
import { defineOperation, notReplaceable } from '../operation-definition';
import { policyIfAny, queryGateIfAny } from './flow-parts';

export const count = defineOperation({
  id: 'count',
  kind: 'read',
  cardinality: 'many',
  route: { method: 'GET', path: 'count', status: 200 },
  takes: { id: false, body: 'none', query: 'count' },
  answers: 'total',
  conditional: { ifNoneMatch: false, ifMatch: 'none' },
  settings: ['delete', 'cache', 'errors'],
  schemaParts: ['query'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  optIn: { path: 'count', on: (config) => config.count === true },
  wording: {
    verb: 'Count',
    summary: ({ many }) => `Count ${many}`,
    sentence: ({ one }) =>
      `Count the ${one} rows that match, computed by the database; takes the list's filter and search.`,
  },
  hints: { readOnly: true, idempotent: true },
  stages: (_entity, op) => [
    ...policyIfAny(op, 'nothing'),
    ...queryGateIfAny(op),
    resultCacheStage([countPlanStage, countReadStage], { rowPolicy: false }),
  ],
  replaced: notReplaceable,
});
