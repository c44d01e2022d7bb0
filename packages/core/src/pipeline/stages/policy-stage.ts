/** Runs the resolved policy (nearest scope wins); false is 403 SVC_FORBIDDEN. */
import { ForbiddenException } from '../../errors/svc-exception';
import type { OperationCall } from '../operation-call';
import { stage, type Stage } from '../stage';
import { askPolicy } from '../../config/ask-policy';

export async function checkPolicy(
  call: OperationCall,
  args: { entity?: Record<string, unknown>; body?: unknown },
): Promise<void> {
  const allowed = await askPolicy(call.operation.policy, {
    operation: call.operation.id,
    entity: args.entity,
    params: call.request.id === undefined ? {} : { [call.entity.lookup.param]: call.request.id },
    body: args.body,
    context: call.context,
  });
  if (!allowed) throw new ForbiddenException(call.operation.id, call.entity.name);
}

/** What a policy stage gives the policy: nothing, the request's body, the flow's body, or the row read. */
export type PolicyInput = 'nothing' | 'request body' | 'body' | 'row';

/**
 * policy: runs the resolved policy with what `input` names. Given the row, it checks the row a guard read (the guard
 * phase); given no row, it settles whether the call may go on before any row is read (the plan phase).
 */
export function policyStage(input: PolicyInput): Stage {
  if (input === 'row') {
    return stage('policy', { phase: 'guard', needs: ['row'] }, (call, state) =>
      checkPolicy(call, { entity: state.row }),
    );
  }
  return stage('policy', { phase: 'plan' }, (call, state) =>
    checkPolicy(call, {
      body: input === 'request body' ? call.request.body : input === 'body' ? state.body : undefined,
    }),
  );
}
