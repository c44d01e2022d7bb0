/** Runs one operation of a GraphQL field through the engine, with the caller's context and the surface named. */
import { executeGated, type ExecuteRequest, type ExecuteResponse } from '@svc/core/spi';
import type { EntityFieldsArgs } from './entity-fields-args';

/** Runs one operation with the caller's context, once the gate (if any) lets it. */
export async function execute(
  args: EntityFieldsArgs,
  contextValue: unknown,
  request: Omit<ExecuteRequest, 'context'>,
): Promise<ExecuteResponse> {
  return executeGated({
    service: args.plan.service,
    request: { ...request, surface: 'graphql' },
    context: args.contextOf(contextValue),
    gate: args.gate,
  });
}
