/**
 * The tools of an Svc instance, built once at bootstrap: one per enabled standard operation of each served entity,
 * plus `svc_describe`. Entities paged by cursor or since cannot be served by limit and offset, so they are refused
 * here (or left out by `exclude`).
 */
import {
  ConfigurationException,
  SvcException,
  type EntityDescription,
  type OperationDescription,
  type SvcContext,
  type SvcInstance,
  type SvcService,
} from '@svc/core';
import { STANDARD_OPERATIONS, type OperationGate } from '@svc/core/spi';
import { DESCRIBE_DEFINITION, DESCRIBE_TOOL_NAME, describeForCaller } from './describe-tool';
import { SvcTool, type SvcToolDefinition } from './svc-tool';
import { problemResult, type SvcToolResult } from './tool-result';

export interface SvcToolsetOptions {
  /** The instance whose services become tools (in Nest, `SvcRegistry.instance`), or the services themselves. */
  readonly svc: SvcInstance | readonly SvcService[];
  /** Entity names left out of the tools (for example, entities paged by cursor or since). @default [] */
  readonly exclude?: readonly string[];
  /**
   * Hears of each tool call that failed on the server's side (a 5xx problem: a database failure, a bug), with its
   * cause; the caller gets the problem without the cause. The Nest binding logs them through Nest's Logger.
   */
  readonly onServerError?: (error: unknown, tool: string) => void;
  /**
   * Asked before each tool call runs its operation, with the service, the operation and the caller's context: throws
   * to refuse (the call answers the refusal as a problem). The Nest binding runs the REST route's guards here.
   */
  readonly gate?: OperationGate;
  /**
   * Serve the read tools only (find, aggregate and `svc_describe`): no write tool is listed, and one called by name is
   * refused with 405 SVC_OPERATION_DISABLED, writing nothing. @default false
   */
  readonly readOnly?: boolean;
}

/** The strategies whose pages limit and offset reach. */
const PAGED_BY_LIMIT = new Set(['offset', 'page', 'none']);

function servicesOf(svc: SvcInstance | readonly SvcService[]): readonly SvcService[] {
  return Array.isArray(svc) ? svc : (svc as SvcInstance).services();
}

/** Cursor and since pages continue from a token, which limit and offset cannot name: a bootstrap error. */
function refuseUnpageable(description: EntityDescription): void {
  const { strategy } = description.pagination;
  if (PAGED_BY_LIMIT.has(strategy)) return;
  throw new ConfigurationException({
    entity: description.name,
    path: 'pagination.strategy',
    message:
      `'${strategy}' cannot be served as an MCP tool, which pages by limit and offset. ` +
      `Give ${description.name} the offset or page strategy, or leave it out with mcp: { exclude: ['${description.name}'] }.`,
  });
}

export class SvcToolset {
  readonly tools: readonly SvcTool[];
  private readonly byName: ReadonlyMap<string, SvcTool>;
  /** With `readOnly`: the write tools the layout would have, refused by name. */
  private readonly writes: ReadonlySet<string>;
  /** `tools/list`: the entity tools, then `svc_describe`. */
  readonly definitions: readonly SvcToolDefinition[];

  constructor(options: SvcToolsetOptions) {
    const services = servicesOf(options.svc);
    const served = new Set(services.map((service) => service.describe().name));
    const exclude = new Set(options.exclude ?? []);
    for (const name of exclude)
      if (!served.has(name))
        throw new ConfigurationException({
          path: 'mcp.exclude',
          message: `names '${name}', which no service serves. Use an entity name: ${[...served].join(', ') || 'none'}.`,
        });
    const tools: SvcTool[] = [];
    const writes = new Set<string>();
    const seen = new Set<string>();
    for (const service of services) {
      const description = service.describe();
      // An entity served by several controllers: the first one's operations are its tools.
      if (exclude.has(description.name) || seen.has(description.name)) continue;
      seen.add(description.name);
      refuseUnpageable(description);
      for (const operation of toolOperationsOf(description)) {
        const tool = new SvcTool(service, operation, options.onServerError, options.gate);
        if (options.readOnly && !operation.hints?.readOnly) writes.add(tool.name);
        else tools.push(tool);
      }
    }
    this.writes = writes;
    this.tools = Object.freeze(tools);
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.definitions = Object.freeze([...tools.map((tool) => tool.definition), DESCRIBE_DEFINITION]);
  }

  /**
   * `tools/list` for one caller: the tools the gate (the REST route's guards, in Nest) and the policy, asked without a
   * row, let the caller call, then `svc_describe`, as `svc_describe` reports them. A tool left out still answers a
   * call, with the refusal.
   */
  async definitionsFor(context: SvcContext): Promise<SvcToolDefinition[]> {
    const allowed = await Promise.all(this.tools.map((tool) => tool.permits(context)));
    return [...this.tools.filter((_, index) => allowed[index]).map((tool) => tool.definition), DESCRIBE_DEFINITION];
  }

  /** Whether `name` is one of the tools, or a write tool a read-only server answers with its refusal. */
  has(name: string): boolean {
    return name === DESCRIBE_TOOL_NAME || this.byName.has(name) || this.writes.has(name);
  }

  /** The output schema `tools/list` advertised for a tool. */
  outputSchemaOf(name: string): SvcToolDefinition['outputSchema'] | undefined {
    return name === DESCRIBE_TOOL_NAME
      ? DESCRIBE_DEFINITION.outputSchema
      : this.byName.get(name)?.definition.outputSchema;
  }

  /** Runs a tool with the caller's context. */
  async call(name: string, args: Record<string, unknown> | undefined, context: SvcContext): Promise<SvcToolResult> {
    if (name === DESCRIBE_TOOL_NAME) return describeForCaller(this.tools, args, context);
    const tool = this.byName.get(name);
    if (!tool && this.writes.has(name)) {
      const detail = `${name} writes, and this server's tools are read-only (mcp.readOnly). Nothing was written. Use a read tool.`;
      return problemResult(new SvcException('SVC_OPERATION_DISABLED', { detail }));
    }
    if (!tool) return problemResult(new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `There is no tool '${name}'.` }));
    return tool.call(args, context);
  }
}

/**
 * The operations that become tools: the standard ones that are on, reads first and the list first among them (so an
 * agent reads how to look before how to change), then in the registry's order.
 */
function toolOperationsOf(description: EntityDescription): OperationDescription[] {
  const order = (operation: OperationDescription) => STANDARD_OPERATIONS.findIndex(({ id }) => id === operation.id);
  const rank = (operation: OperationDescription) =>
    (operation.kind === 'read' ? (operation.cardinality === 'many' ? 0 : 1) : 2) * 100 + order(operation);
  return description.operations
    .filter((operation) => operation.standard && operation.state === 'on')
    .sort((a, b) => rank(a) - rank(b));
}
