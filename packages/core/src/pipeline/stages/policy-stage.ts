/** Runs the resolved policy (nearest scope wins); false is 403 SVC_FORBIDDEN. */
import { ForbiddenException } from '../../errors/svc-exception';
import type { OperationCall } from '../operation-call';
import { stage, type FlowState } from '../stage';

export async function checkPolicy(
  call: OperationCall,
  args: { entity?: Record<string, unknown>; body?: unknown },
): Promise<void> {
  const policy = call.operation.policy;
  if (!policy) return;
  const allowed = await policy({
    operation: call.operation.id,
    entity: args.entity,
    params: call.request.id === undefined ? {} : { [call.entity.lookup.param]: call.request.id },
    body: args.body,
    context: call.context,
  });
  if (allowed !== true) throw new ForbiddenException(call.operation.id, call.entity.name);
}

/** What a policy stage gives the policy: nothing, the request's body, the flow's body, or the row read. */
export type PolicyInput = 'nothing' | 'request body' | 'body' | 'row';

/** policy: runs the resolved policy with what `input` names. */
export function policyStage(input: PolicyInput) {
  return stage('policy', (call, state: FlowState) =>
    checkPolicy(call, {
      body: input === 'request body' ? call.request.body : input === 'body' ? state.body : undefined,
      entity: input === 'row' ? (state.row ?? undefined) : undefined,
    }),
  );
}
