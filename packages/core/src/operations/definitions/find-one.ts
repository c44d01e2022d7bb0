/** findOne: `GET /:id`, one row the caller may see, with its ETag; a matching If-None-Match answers 304. */
import { rowHandlerStage } from '../run-handler';
import { resultCacheStage } from '../../pipeline/stages/result-cache-stage';
import { lookupStage } from '../../pipeline/stages/lookup-stage';
import { itemOutputStage, notModifiedStage } from '../../pipeline/stages/output-stage';
import { itemReadOutputStage, itemShapeStage, loadStage } from '../read-operations';
import { defineOperation } from '../operation-definition';
import { policyIfAny, queryGateIfAny } from './flow-parts';

export const findOne = defineOperation({
  id: 'findOne',
  kind: 'read',
  cardinality: 'one',
  route: { method: 'GET', path: ':id', status: 200 },
  takes: { id: true, body: 'none', query: 'item' },
  answers: 'item',
  conditional: { ifNoneMatch: true, ifMatch: 'none' },
  settings: ['delete', 'cache', 'errors'],
  schemaParts: ['output', 'query'],
  needsSoftDelete: false,
  deleteMarker: 'none',
  wording: {
    verb: 'Read',
    summary: ({ one }) => `Read one ${one}`,
    sentence: ({ one, key }) => `Read one ${one} by its ${key}.`,
  },
  hints: { readOnly: true },
  stages: (_entity, op) => [
    lookupStage,
    ...queryGateIfAny(op),
    itemShapeStage,
    resultCacheStage([loadStage, ...policyIfAny(op, 'row'), itemReadOutputStage], { rowPolicy: true }),
    notModifiedStage,
  ],
  replaced: (_entity, op) => [
    lookupStage,
    ...queryGateIfAny(op),
    ...policyIfAny(op, 'nothing'),
    rowHandlerStage,
    itemOutputStage({ conditional: true }),
  ],
});
