/** findMany: `GET /`, a page of the rows the caller may see, filtered, sorted, searched and paged as the query says. */
import { handlerStage } from '../run-handler';
import { resultCacheStage } from '../../pipeline/stages/result-cache-stage';
import { listEnvelopeStage, listIncludesStage, listPlanStage, listReadStage } from '../read-operations';
import { defineOperation } from '../operation-definition';
import { policyIfAny, queryGateIfAny } from './flow-parts';

export const findMany = defineOperation({
  id: 'findMany',
  kind: 'read',
  cardinality: 'many',
  route: { method: 'GET', path: '', status: 200 },
  takes: { id: false, body: 'none', query: 'list' },
  answers: 'list',
  conditional: { ifNoneMatch: false, ifMatch: 'none' },
  settings: ['pagination', 'delete', 'cache', 'errors'],
  schemaParts: ['output', 'query'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  wording: {
    verb: 'List',
    summary: ({ many }) => `List ${many}`,
    sentence: ({ one }) => `List ${one} rows.`,
  },
  hints: { readOnly: true },
  stages: (_entity, op) => [
    ...policyIfAny(op, 'nothing'),
    ...queryGateIfAny(op),
    resultCacheStage([listPlanStage, listReadStage, listEnvelopeStage, listIncludesStage], { rowPolicy: false }),
  ],
  replaced: (_entity, op) => [
    ...policyIfAny(op, 'nothing'),
    ...queryGateIfAny(op),
    resultCacheStage([listPlanStage, handlerStage, listEnvelopeStage, listIncludesStage], { rowPolicy: false }),
  ],
});
