/** Runs operations: picks the compiled flow, merges per-call settings, maps every failure to an Svc exception. */
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { StandardOperationId } from '../config/svc-settings';
import { customOperation } from '../operations/custom-operations';
import { relationWrite } from '../operations/relation-writes';
import { mergeSettings } from '../config/merge-settings';
import { refuseUnservedSettings } from '../entity/served-settings';
import { validateSettings } from '../config/validate-settings';
import { OperationDisabledException, SvcException, InternalException } from '../errors/svc-exception';
import { STANDARD_FLOWS } from '../operations/standard-operations';
import { checkInputDepth } from '../schema/input-depth';
import { afterCommit } from '../pipeline/stages/after-commit-stage';
import { assertOutput, type OutputValidator } from '../schema/output-slots';
import type { ExecuteRequest, ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import type { SvcContext } from '../config/svc-context';

/** Marks an exception whose operation serves driver detail (`errors.exposeInternals`). */
export const EXPOSE_INTERNALS = Symbol.for('svc.exposeInternals');

/** Checks a response's items against the operation's output validator, if it has one. */
async function assertServed(
  entity: string,
  validator: OutputValidator | undefined,
  response: ExecuteResponse,
): Promise<void> {
  if (!validator || response.body === undefined || response.status >= 300) return;
  const body = response.body as { items?: unknown[] };
  await assertOutput(entity, validator, Array.isArray(body.items) ? body.items : [response.body]);
}

/** `meta.routes.successStatus` replaces the operation's own success status (never a 304 or an error). */
function withSuccessStatus(response: ExecuteResponse, operation: ResolvedOperation): ExecuteResponse {
  const status = operation.route?.successStatus;
  if (status === undefined || response.status === 304 || response.status >= 300) return response;
  return { ...response, status };
}

export class SvcEngine {
  constructor(readonly entity: ResolvedEntity) {}

  /**
   * Whether the operation's resolved policy (nearest scope wins) lets this context call it, asked without a row, a
   * body or an id: what `findMany` is asked. A binding that lists what a caller may use (the agent tools'
   * `svc_describe`) leaves out what this refuses. False for an operation the entity does not serve or has disabled.
   */
  async permits(operation: string, context: SvcContext = {}): Promise<boolean> {
    const resolved = this.entity.operations.get(operation);
    if (!resolved || resolved.state === 'disabled') return false;
    if (!resolved.policy) return true;
    return (await resolved.policy({ operation, entity: undefined, params: {}, body: undefined, context })) === true;
  }

  /** Runs one operation and returns the whole response (status, body, ETag, headers); failures throw. */
  async execute(request: ExecuteRequest): Promise<ExecuteResponse> {
    const operation = this.entity.operations.get(request.operation);
    if (!operation) {
      throw new SvcException('SVC_ROUTE_NOT_FOUND', {
        detail: `${request.operation} is not an operation of ${this.entity.name}. Check the method and path.`,
      });
    }
    if (operation.state === 'disabled') throw new OperationDisabledException(request.operation, this.entity.name);
    let settings = operation.settings;
    if (request.settings) {
      validateSettings(request.settings as Record<string, unknown>, {
        scope: 'call',
        entity: this.entity.name,
        operation: operation.settingsAs,
        path: `${operation.id} call settings`,
      });
      settings = mergeSettings(settings, request.settings);
      refuseUnservedSettings(this.entity.name, operation.settingsAs, settings, {
        strategies: this.entity.strategies,
        realtime: this.entity.publisher.hasTransports,
      });
    }
    const context = request.context ?? {};
    const call: OperationCall = { entity: this.entity, operation, settings, request, context, outcomes: [] };
    try {
      checkInputDepth(request, this.entity.maxInputDepth);
      const flow = operation.custom
        ? customOperation
        : operation.relationWrite
          ? relationWrite
          : STANDARD_FLOWS[operation.id as StandardOperationId];
      let response: ExecuteResponse;
      try {
        response = withSuccessStatus(await flow(call), operation);
      } finally {
        // Whatever committed is after-committed, even when the response then fails.
        await afterCommit(this.entity, settings, call.outcomes);
      }
      await assertServed(this.entity.name, operation.outputValidator, response);
      return call.outcomes.length > 0 ? { ...response, outcomes: call.outcomes } : response;
    } catch (error) {
      const exception = error instanceof SvcException ? error : new InternalException(error);
      if (settings.errors.exposeInternals) Object.defineProperty(exception, EXPOSE_INTERNALS, { value: true });
      throw exception;
    }
  }
}
