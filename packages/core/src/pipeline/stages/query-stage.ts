/** query: the operation's query gate (`schema.input.query`, a Standard Schema), before the query is resolved. */
import { checkQuery } from '../../query/query-validator';
import { stage } from '../stage';

export const queryGateStage = stage('query', { phase: 'input' }, (call) =>
  checkQuery(call.operation.queryValidator, call.request.query),
);
