/**
 * The tools of an Svc instance, built once at bootstrap: one per enabled standard operation of each served entity
 * (the `entity` layout), or one per standard operation some entity serves, naming the entity in an argument (the
 * `compact` layout), plus `svc_describe` in both. Entities paged by cursor or since cannot be served by limit and
 * offset, so they are refused here (or left out by `exclude`).
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
import { compactToolNameOf, SvcCompactTool } from './compact-tool';
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
   * Serve the read tools only (find, aggregate, count and `svc_describe`): no write tool is listed, and one called by name
   * (`book_create_one`, or in the compact layout `create_one`) is refused with 405 SVC_OPERATION_DISABLED, writing
   * nothing. @default false
   */
  readonly readOnly?: boolean;
  /**
   * How the operations become tools. `'entity'`: one tool per entity and operation (`book_find_many`). `'compact'`:
   * one tool per standard operation that some entity serves (`find_many`, `patch_one`, ..., the batch tools and
   * `aggregate` only where an entity has them on), which takes the entity as its `entity` argument and holds every
   * entity's argument shapes in its input schema: the list holds the same few tools however many entities there are
   * (their schemas still grow with the entities). `svc_describe` is the describe tool in both, and names each
   * entity's tools as the layout calls them.
   * @default 'entity'
   */
  readonly tools?: 'entity' | 'compact';
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

/** A tool `tools/list` serves: an entity tool, or in the compact layout a compact tool. */
type ServedTool = SvcTool | SvcCompactTool;

export class SvcToolset {
  /** The entity tools: what the entity layout serves, and what the compact tools run. */
  readonly tools: readonly SvcTool[];
  /** The compact tools, in the compact layout. */
  private readonly compact?: readonly SvcCompactTool[];
  private readonly byName: ReadonlyMap<string, ServedTool>;
  /** With `readOnly`: the write tools the layout would have, refused by name. */
  private readonly writes: ReadonlySet<string>;
  /** `tools/list`: the entity tools (or the compact tools), then `svc_describe`. */
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
    const layout = options.tools ?? 'entity';
    if (layout !== 'entity' && layout !== 'compact')
      throw new ConfigurationException({
        path: 'mcp.tools',
        message: `is '${String(layout)}'. Use 'entity' (a tool per entity and operation) or 'compact' (a tool per operation).`,
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
        if (!options.readOnly || operation.hints?.readOnly) tools.push(tool);
        else writes.add(layout === 'compact' ? compactToolNameOf(operation.id) : tool.name);
      }
    }
    this.writes = writes;
    this.tools = Object.freeze(tools);
    this.compact = layout === 'compact' ? Object.freeze(compactToolsOf(tools)) : undefined;
    const listed = this.compact ?? tools;
    this.byName = new Map(listed.map((tool) => [tool.name, tool]));
    this.definitions = Object.freeze([...listed.map((tool) => tool.definition), DESCRIBE_DEFINITION]);
  }

  /**
   * `tools/list` for one caller: the tools the gate (the REST route's guards, in Nest) and the policy, asked without a
   * row, let the caller call, then `svc_describe`, as `svc_describe` reports them, each with the schemas of the
   * caller's role where the entity has `access`. A compact tool is listed when the caller may call it on at least one
   * entity, with those entities only in its `entity` enum and its schema. A tool (or an entity) left out still answers
   * a call, with the refusal.
   */
  async definitionsFor(context: SvcContext): Promise<SvcToolDefinition[]> {
    const allowed = await Promise.all(this.tools.map((tool) => tool.permits(context)));
    const permitted = this.tools.filter((_, index) => allowed[index]);
    const compact = this.compact;
    if (!compact) return [...permitted.map((tool) => tool.definitionFor(context)), DESCRIBE_DEFINITION];
    const permits = new Set(permitted);
    const listed = compact.flatMap((tool) => tool.definitionFor(context, permits) ?? []);
    return [...listed, DESCRIBE_DEFINITION];
  }

  /** Whether `name` is one of the tools, or a write tool a read-only server answers with its refusal. */
  has(name: string): boolean {
    return name === DESCRIBE_TOOL_NAME || this.byName.has(name) || this.writes.has(name);
  }

  /** The output schema `tools/list` advertised for a tool to this caller. */
  outputSchemaOf(name: string, context: SvcContext): SvcToolDefinition['outputSchema'] | undefined {
    return name === DESCRIBE_TOOL_NAME
      ? DESCRIBE_DEFINITION.outputSchema
      : this.byName.get(name)?.definitionFor(context)?.outputSchema;
  }

  /** Runs a tool with the caller's context. */
  async call(name: string, args: Record<string, unknown> | undefined, context: SvcContext): Promise<SvcToolResult> {
    if (name === DESCRIBE_TOOL_NAME)
      return describeForCaller(this.tools, args, context, this.compact ? compactNameOf : undefined);
    const tool = this.byName.get(name);
    if (!tool && this.writes.has(name)) {
      const detail = `${name} writes, and this server's tools are read-only (mcp.readOnly). Nothing was written. Use a read tool.`;
      return problemResult(new SvcException('SVC_OPERATION_DISABLED', { detail }));
    }
    if (!tool) return problemResult(new SvcException('SVC_ROUTE_NOT_FOUND', { detail: `There is no tool '${name}'.` }));
    return tool.call(args, context);
  }
}

function compactNameOf(tool: SvcTool): string {
  return compactToolNameOf(tool.operation);
}

/** The compact tools of the entity tools: one per operation, over its entities in the order they are served. */
function compactToolsOf(tools: readonly SvcTool[]): SvcCompactTool[] {
  const byOperation = new Map<string, SvcTool[]>();
  for (const tool of tools) byOperation.set(tool.operation, [...(byOperation.get(tool.operation) ?? []), tool]);
  return [...byOperation]
    .sort(([, [a]], [, [b]]) => rankOf(a!.described) - rankOf(b!.described))
    .map(([operation, entityTools]) => new SvcCompactTool(operation, entityTools));
}

/**
 * The operations that become tools: the standard ones that are on, reads first and the list first among them (so an
 * agent reads how to look before how to change), then in the registry's order.
 */
function toolOperationsOf(description: EntityDescription): OperationDescription[] {
  return description.operations
    .filter((operation) => operation.standard && operation.state === 'on')
    .sort((a, b) => rankOf(a) - rankOf(b));
}

/** Where an operation's tool is listed: the list, the other reads, then the writes, each in the registry's order. */
function rankOf(operation: OperationDescription): number {
  const order = STANDARD_OPERATIONS.findIndex(({ id }) => id === operation.id);
  return (operation.kind === 'read' ? (operation.cardinality === 'many' ? 0 : 1) : 2) * 100 + order;
}
