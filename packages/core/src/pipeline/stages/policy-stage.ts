/** Runs the resolved policy (nearest scope wins); false is 403 SVC_FORBIDDEN. */
import { ForbiddenException } from '../../errors/svc-exception';
import type { OperationCall } from '../operation-call';

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
