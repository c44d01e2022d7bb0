/** query: the operation's query gate (`schema.input.query`, a Standard Schema), before the query is resolved. */
import { checkQuery } from '../../query/query-validator';
import { stage } from '../stage';

/** In the plan phase: the first step of resolving the read, where a policy asked without a row may come before it. */
export const queryGateStage = stage('query', { phase: 'plan' }, (call) =>
  checkQuery(call.operation.queryValidator, call.request.query),
);
