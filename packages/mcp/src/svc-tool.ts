/** One entity operation as an MCP tool: its definition (name, schemas, annotations) and how a call runs. */
import {
  BatchTooLargeException,
  type EntityDescription,
  type FindManyQuery,
  type OperationDescription,
  type SvcContext,
  type SvcService,
} from '@svc/core';
import { executeGated, offsetPage, type ExecuteRequest, type OperationGate } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';
import { inputSchemaOf } from './tool-input-schema';
import { outputSchemaOf, receiptFlagOf, successSchemaOf } from './tool-output-schema';
import { toolNameOf } from './tool-name';
import { toolDescriptionOf } from './tool-description';
import { problemResult, successResult, type SvcToolResult } from './tool-result';
import { argumentsException, validateArguments } from './validate-arguments';

/** MCP tool annotations (hints for the host; never a security boundary). */
export interface SvcToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

/** The definition `tools/list` serves. */
export interface SvcToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: SvcToolAnnotations;
}

/** What a call's arguments hold, read off the operation's schemas: the query's names, the key, the body. */
interface Takes {
  readonly query: readonly string[];
  readonly key: boolean;
  readonly body: boolean;
}

/** The tool as one view of its entity serves it (`access`): its definition, and what a call's arguments hold. */
interface ToolView {
  readonly description: EntityDescription;
  readonly definition: SvcToolDefinition;
  readonly takes: Takes;
}

export class SvcTool {
  readonly definition: SvcToolDefinition;
  /** The operation's id. */
  readonly operation: string;
  /** The tool over the entity itself: what a caller whose role has no rule (or no role) is served. */
  private readonly base: ToolView;
  /** The tool over each role's view of the entity, built on the first call or listing of that role. */
  private readonly views = new WeakMap<EntityDescription, ToolView>();

  constructor(
    readonly service: SvcService,
    /** The standard operation the tool calls, as the entity's description gives it. */
    readonly described: OperationDescription,
    /** Hears of each call that failed on the server's side (a 5xx problem), with its cause. */
    private readonly onServerError?: (error: unknown, tool: string) => void,
    /** Asked before the operation runs (the REST route's guards, in Nest). */
    private readonly gate?: OperationGate,
  ) {
    this.operation = described.id;
    this.base = viewOf(service.describe(), described);
    this.definition = this.base.definition;
  }

  /**
   * The definition served to this caller: where `access` gives its role a rule, with the schemas of that role's view
   * (no field it may not read, no write slot it may not write); else `definition`.
   */
  definitionFor(context: SvcContext): SvcToolDefinition {
    return this.viewFor(context).definition;
  }

  private viewFor(context: SvcContext): ToolView {
    const description = this.service.describe(context);
    if (description === this.base.description) return this.base;
    let view = this.views.get(description);
    if (!view) {
      // A view serves the operations of its entity; should it lack this one, the call is the engine's to refuse.
      const described = description.operations.find((operation) => operation.id === this.operation);
      view = described ? viewOf(description, described) : this.base;
      this.views.set(description, view);
    }
    return view;
  }

  get name(): string {
    return this.definition.name;
  }

  /** The tool lists the entity's rows (the one `svc_describe` asks to decide whether the entity is shown). */
  get lists(): boolean {
    return this.described.answers === 'list';
  }

  /**
   * Whether `svc_describe` lists this tool for the caller: the gate lets the call through (a refusal or a failure
   * hides the tool), then the policy, asked without a row. A policy that needs the row leaves it to the call, except
   * for the list, whose answer decides whether the entity is listed at all.
   */
  async permits(context: SvcContext): Promise<boolean> {
    try {
      if (this.gate) await this.gate({ service: this.service, operation: this.operation, context });
    } catch {
      return false;
    }
    try {
      return await this.service.engine.permits(this.operation, context);
    } catch {
      return !this.lists;
    }
  }

  /** Runs the call with the caller's context; a refused or failed call is a result with `isError`, never a throw. */
  async call(args: Record<string, unknown> | undefined, context: SvcContext): Promise<SvcToolResult> {
    try {
      const input = args ?? {};
      refuseOversizedBatch(this.described, input);
      const view = this.viewFor(context);
      const problems = validateArguments(view.definition.inputSchema, input);
      if (problems.length > 0) throw argumentsException(problems);
      const request = requestOf(this.operation, view, input);
      const response = await executeGated({
        service: this.service,
        request: { ...request, surface: 'mcp' },
        context,
        gate: this.gate,
      });
      if (this.described.answers === 'none')
        return successResult({ id: request.id, [receiptFlagOf(this.described)]: true });
      if (this.lists) return successResult(withNextPage(response.body as ListPage));
      return successResult(response.body);
    } catch (error) {
      const result = problemResult(error);
      if ((result.structuredContent['status'] as number) >= 500) this.onServerError?.(error, this.name);
      return result;
    }
  }
}

/** The tool over one description of its entity. */
function viewOf(description: EntityDescription, described: OperationDescription): ToolView {
  const { params, query, body } = described.schemas;
  const title = described.wording?.title ?? described.summary;
  const hints = described.hints ?? { readOnly: described.kind === 'read' };
  return {
    description,
    takes: {
      query: Object.keys((query['properties'] as object | undefined) ?? {}),
      key: Object.hasOwn((params['properties'] as object | undefined) ?? {}, description.lookup.param),
      body: body !== undefined,
    },
    definition: Object.freeze({
      name: toolNameOf(description.name, described.id),
      title,
      description: toolDescriptionOf(description, described),
      inputSchema: inputSchemaOf(description, described),
      outputSchema: outputSchemaOf(successSchemaOf(description, described)),
      annotations: {
        title,
        readOnlyHint: hints.readOnly,
        ...(hints.destructive !== undefined ? { destructiveHint: hints.destructive } : {}),
        ...(hints.idempotent !== undefined ? { idempotentHint: hints.idempotent } : {}),
        openWorldHint: false,
      },
    }),
  };
}

/** The engine request of valid arguments: the key, the body, and the query's properties as they are. */
function requestOf(operation: string, view: ToolView, args: Record<string, unknown>): ExecuteRequest {
  const { query, key, body } = view.takes;
  return {
    operation,
    ...(key ? { id: args['id'] } : {}),
    ...(body ? { body: args['data'] } : {}),
    ...(query.length > 0 ? { query: queryOf(view.description, query, args) } : {}),
  };
}

interface ListPage {
  readonly items: unknown[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
}

/**
 * A page with whether more rows follow it, and where the next page starts: an agent never takes a page for the whole
 * match set. Without a total, a full page says there may be more.
 */
function withNextPage(page: ListPage): ListPage & { hasMore: boolean; nextOffset?: number } {
  const next = page.offset + page.items.length;
  const hasMore = page.total === null ? page.items.length > 0 && page.items.length >= page.limit : next < page.total;
  return { ...page, hasMore, ...(hasMore ? { nextOffset: next } : {}) };
}

function pick(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}

/**
 * The query of a call: the arguments the operation's query names; where it pages by page number, the tool's `limit`
 * and `offset` become the page.
 */
function queryOf(
  description: EntityDescription,
  names: readonly string[],
  args: Record<string, unknown>,
): FindManyQuery {
  const query = pick(
    args,
    names.filter((name) => name !== 'page'),
  );
  if (!names.includes('page')) return query;
  const page = offsetPage(description, {
    limit: args['limit'] as number | undefined,
    offset: (args['offset'] as number | undefined) ?? 0,
  });
  return { ...query, page: { number: page.number ?? 1, size: page.size ?? description.pagination.defaultLimit } };
}

/**
 * A batch of more items than `batch.maxItems`, refused as the engine refuses it over REST and GraphQL (400
 * SVC_BATCH_TOO_LARGE naming the limit, the maximum and the count), whatever else is wrong with the items. The input
 * schema's `maxItems` tells the agent the bound; checked here first, it never words the refusal as a validation
 * failure.
 */
function refuseOversizedBatch(operation: OperationDescription, args: Record<string, unknown>): void {
  const max = operation.items?.maxItems;
  const items = args['data'];
  if (max !== undefined && Array.isArray(items) && items.length > max)
    throw new BatchTooLargeException('maxItems', max, items.length);
}
