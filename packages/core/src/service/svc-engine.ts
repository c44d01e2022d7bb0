/**
 * Runs operations: resolves every operation's stage list once (at bootstrap, when the engine is built), then per call
 * merges per-call settings, runs the list and maps every failure to an Svc exception.
 */
import { markRoute } from '../entity/resolve-parent';
import { askPolicy } from '../config/ask-policy';
import type { ResolvedEntity } from '../entity/resolved-entity';
import { resolveFlow, type OperationFlow } from '../operations/operation-flows';
import { runStages, stageNames, type FlowState } from '../pipeline/stage';
import { mergeSettings } from '../config/merge-settings';
import { refuseUnservedSettings } from '../entity/served-settings';
import { validateSettings } from '../config/validate-settings';
import { OperationDisabledException, SvcException, InternalException } from '../errors/svc-exception';
import { checkInputDepth } from '../schema/input-depth';
import type { ExecuteRequest, ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import type { SvcContext } from '../config/svc-context';
import { inOperationSpan } from './operation-span';

/** Marks an exception whose operation serves driver detail (`errors.exposeInternals`). */
export const EXPOSE_INTERNALS = Symbol.for('svc.exposeInternals');

/** Carries, on an exception, the `errors.format` in force for the operation that raised it (REST answers with it). */
export const ERROR_FORMAT = Symbol.for('svc.errorFormat');

export class SvcEngine {
  /** Each operation's stage list, resolved once. */
  private readonly flows = new Map<string, OperationFlow>();
  /** The engine of each role's view (`access`), built with this one. */
  private readonly roles = new Map<string, SvcEngine>();

  /** `tracing: false` (SvcOptions) runs operations without asking the OpenTelemetry API for a span. */
  constructor(
    readonly entity: ResolvedEntity,
    private readonly tracing = true,
  ) {
    for (const [id, operation] of entity.operations) this.flows.set(id, resolveFlow(entity, operation));
    for (const [role, view] of entity.access?.views ?? []) this.roles.set(role, new SvcEngine(view, tracing));
  }

  /** The engine of the caller's role (its view of the entity), or this one. */
  private engineFor(context: SvcContext | undefined): SvcEngine {
    if (this.roles.size === 0) return this;
    const role = this.entity.access!.role(context ?? {});
    return (role !== undefined && this.roles.get(role)) || this;
  }

  /** The entity as this caller sees it (`access`): its role's view, else the entity. */
  entityFor(context: SvcContext | undefined): ResolvedEntity {
    return this.engineFor(context).entity;
  }

  /**
   * What an operation does, in order, as stage names: `key, input, lean ? (updateAlone) : (transaction(guard,
   * references, update, reread)), outcome, output, afterCommit`. `jsonPatch` asks for patchOne's RFC 6902 list.
   */
  stagesOf(operation: string, options: { jsonPatch?: boolean } = {}): readonly string[] | undefined {
    const flow = this.flows.get(operation);
    if (!flow) return undefined;
    return stageNames(options.jsonPatch && flow.jsonPatch ? flow.jsonPatch : flow.stages);
  }

  /**
   * Whether the operation's resolved policy (nearest scope wins) lets this context call it, asked without a row, a
   * body or an id: what `findMany` is asked. A binding that lists what a caller may use (the agent tools'
   * `svc_describe`) leaves out what this refuses. False for an operation the entity does not serve or has disabled.
   */
  async permits(operation: string, context: SvcContext = {}): Promise<boolean> {
    const resolved = this.entityFor(context).operations.get(operation);
    if (!resolved || resolved.state === 'disabled') return false;
    return askPolicy(resolved.policy, { operation, context });
  }

  /** The call of a request: the operation it names (served and enabled) with the settings in force for it. */
  private callOf(request: ExecuteRequest): OperationCall {
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
    return { entity: this.entity, operation, settings, request, context: request.context ?? {}, outcomes: [] };
  }

  /**
   * Checks what a read's query asks for (its `select` and `include` against the allowlists and the include limits)
   * as `execute` would, without reading anything; the same error when it is refused. A binding that answers a write
   * by reading the row again calls it before the write, so a read it could not answer leaves nothing written.
   */
  async checkQuery(request: ExecuteRequest): Promise<void> {
    const engine = this.engineFor(request.context);
    if (engine !== this) return engine.checkQuery(request);
    const call = this.callOf(request);
    // The stages of the list that resolve a single-row read's `select` and `include`: those that give its shape.
    const shape = this.flows.get(call.operation.id)!.stages.filter((step) => step.gives.includes('shape'));
    checkInputDepth(request, this.entity.maxInputDepth);
    await runStages(call, shape, {});
  }

  /**
   * Runs one operation and returns the whole response (status, body, ETag, headers); failures throw. Each call is a
   * span named `<Entity>.<operation>` when an OpenTelemetry SDK is registered (operation-span.ts).
   */
  execute(request: ExecuteRequest): Promise<ExecuteResponse> {
    if (!this.tracing) return this.routed(request);
    const names = { entity: this.entity.name, operation: request.operation, surface: request.surface ?? 'service' };
    return inOperationSpan(names, () => this.routed(request));
  }

  /** The call as its caller's, where the adapter routes reads by caller (replicas with read-your-writes). */
  private routed(request: ExecuteRequest): Promise<ExecuteResponse> {
    const routing = this.entity.adapter.routing;
    if (!routing) return this.run(request);
    return routing.runAs(request.context ?? {}, () => this.run(request));
  }

  private async run(request: ExecuteRequest): Promise<ExecuteResponse> {
    const engine = this.engineFor(request.context);
    if (engine !== this) return engine.run(request);
    if (request.surface === 'rest') markRoute(request.context?.request, this.entity.target);
    let call: OperationCall;
    try {
      call = this.callOf(request);
    } catch (error) {
      throw this.stamped(error);
    }
    const { operation, settings } = call;
    try {
      checkInputDepth(request, this.entity.maxInputDepth);
      const flow = this.flows.get(operation.id)!;
      const state: FlowState = {};
      await runStages(call, request.jsonPatch && flow.jsonPatch ? flow.jsonPatch : flow.stages, state);
      // Every flow gives a response (checked when it was resolved).
      const response = state.response as ExecuteResponse;
      return call.outcomes.length > 0 ? { ...response, outcomes: call.outcomes } : response;
    } catch (error) {
      const exception = this.stamped(error);
      if (settings.errors.exposeInternals) Object.defineProperty(exception, EXPOSE_INTERNALS, { value: true });
      if (settings.errors.format && !Object.prototype.hasOwnProperty.call(exception, ERROR_FORMAT))
        Object.defineProperty(exception, ERROR_FORMAT, { value: settings.errors.format });
      throw exception;
    }
  }

  /** The failure as an Svc exception naming the entity it is about (this one, unless it names another already). */
  private stamped(error: unknown): SvcException {
    const exception = error instanceof SvcException ? error : new InternalException(error);
    exception.entity ??= this.entity.name;
    return exception;
  }
}
