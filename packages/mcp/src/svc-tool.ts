/** One entity operation as an MCP tool: its definition (name, schemas, annotations) and how a call runs. */
import {
  QueryInvalidException,
  QueryUnsupportedParamException,
  ValidationFailedException,
  type EntityDescription,
  type ExecuteRequest,
  type FindManyQuery,
  type OperationGate,
  type SvcContext,
  type SvcService,
} from '@svc/core';
import type { JsonSchema } from './json-schema';
import { inputSchemaOf, type ToolOperation } from './tool-input-schema';
import { outputSchemaOf, successSchemaOf } from './tool-output-schema';
import { toolNameOf } from './tool-name';
import { toolDescriptionOf } from './tool-description';
import { problemResult, successResult, type SvcToolResult } from './tool-result';
import { toErrorItems, validateArguments, type ArgumentProblem } from './validate-arguments';

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

/**
 * The hints of each operation. Reads are read-only. Create only adds; update and patch overwrite values, delete and
 * purge remove rows, so those are destructive; restore brings a row back. Update, delete and restore leave the same
 * state however often they are repeated.
 */
const HINTS: Readonly<Record<ToolOperation, Omit<SvcToolAnnotations, 'title' | 'openWorldHint'>>> = {
  findMany: { readOnlyHint: true },
  findOne: { readOnlyHint: true },
  createOne: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  updateOne: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  patchOne: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  deleteOne: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  restoreOne: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  purgeOne: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
};

const TITLES: Readonly<Record<ToolOperation, string>> = {
  findMany: 'List',
  findOne: 'Read',
  createOne: 'Create',
  updateOne: 'Replace',
  patchOne: 'Change',
  deleteOne: 'Delete',
  restoreOne: 'Restore',
  purgeOne: 'Purge',
};

export class SvcTool {
  readonly definition: SvcToolDefinition;

  constructor(
    readonly service: SvcService,
    readonly operation: ToolOperation,
    /** Hears of each call that failed on the server's side (a 5xx problem), with its cause. */
    private readonly onServerError?: (error: unknown, tool: string) => void,
    /** Asked before the operation runs (the REST route's guards, in Nest). */
    private readonly gate?: OperationGate,
  ) {
    const description = service.describe();
    const title = `${TITLES[operation]} ${description.name}`;
    this.definition = Object.freeze({
      name: toolNameOf(description.name, operation),
      title,
      description: toolDescriptionOf(description, operation),
      inputSchema: inputSchemaOf(description, operation),
      outputSchema: outputSchemaOf(successSchemaOf(description, operation)),
      annotations: { title, ...HINTS[operation], openWorldHint: false },
    });
  }

  get name(): string {
    return this.definition.name;
  }

  /**
   * Whether `svc_describe` lists this tool for the caller: the gate lets the call through (a refusal or a failure
   * hides the tool), then the policy, asked without a row. A policy that needs the row leaves it to the call, except
   * for `findMany`, whose answer decides whether the entity is listed at all.
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
      return this.operation !== 'findMany';
    }
  }

  /** Runs the call with the caller's context; a refused or failed call is a result with `isError`, never a throw. */
  async call(args: Record<string, unknown> | undefined, context: SvcContext): Promise<SvcToolResult> {
    try {
      const input = args ?? {};
      const problems = validateArguments(this.definition.inputSchema, input);
      if (problems.length > 0) throw argumentsException(problems);
      const request = this.requestOf(input);
      if (this.gate) await this.gate({ service: this.service, operation: this.operation, context });
      const response = await this.service.engine.execute({ ...request, context });
      if (this.operation === 'deleteOne') return successResult({ id: request.id, deleted: true });
      if (this.operation === 'purgeOne') return successResult({ id: request.id, purged: true });
      return successResult(response.body);
    } catch (error) {
      const result = problemResult(error);
      if ((result.structuredContent['status'] as number) >= 500) this.onServerError?.(error, this.name);
      return result;
    }
  }

  /** The engine request of valid arguments. */
  private requestOf(args: Record<string, unknown>): ExecuteRequest {
    const operation = this.operation;
    switch (operation) {
      case 'findMany':
        return { operation, query: listQuery(this.service.describe(), args) };
      case 'findOne':
        return { operation, id: args['id'], query: pick(args, ['select', 'include']) };
      case 'createOne':
        return { operation, body: args['data'] };
      case 'updateOne':
      case 'patchOne':
        return { operation, id: args['id'], body: args['data'] };
      default:
        return { operation, id: args['id'] };
    }
  }
}

function pick(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}

/** The list query of `findMany`'s arguments; under the `page` strategy, limit and offset become the page. */
function listQuery(description: EntityDescription, args: Record<string, unknown>): FindManyQuery {
  const query = pick(args, ['filter', 'sort', 'select', 'include', 'search', 'withDeleted', 'onlyDeleted']);
  if (description.pagination.strategy !== 'page') return { ...query, ...pick(args, ['limit', 'offset']) };
  const size = (args['limit'] as number | undefined) ?? description.pagination.defaultLimit;
  const offset = (args['offset'] as number | undefined) ?? 0;
  if (offset % size !== 0)
    throw new QueryInvalidException([
      {
        param: 'offset',
        code: 'page',
        detail: `'offset' must be a multiple of limit (${size}): ${description.name} pages by page number.`,
      },
    ]);
  return { ...query, page: { number: offset / size + 1, size } };
}

/**
 * Arguments that fail the input schema: SVC_VALIDATION_FAILED when only `data` is at fault,
 * SVC_QUERY_UNSUPPORTED_PARAM when only unknown arguments are, else SVC_QUERY_INVALID; every problem in one error.
 */
function argumentsException(problems: readonly ArgumentProblem[]): Error {
  const items = toErrorItems(problems);
  if (problems.every((problem) => problem.path === 'data' || problem.path.startsWith('data.')))
    return new ValidationFailedException(items);
  if (problems.every((problem) => problem.code === 'unknown' && !problem.path.includes('.')))
    return new QueryUnsupportedParamException(items);
  return new QueryInvalidException(items);
}
