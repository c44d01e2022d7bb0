/**
 * `svc_describe`: what the caller may use, asked with the caller's context: each entity whose `findMany` the gate
 * (the REST route's guards, in Nest) and the policy let the caller call, with its fields, filter operators, sort and
 * include allowlists, paging bounds, write fields and the tools of the operations the gate and the policy allow
 * (the policy asked without a row: a row-level policy still decides per call), all as the caller's role sees them.
 */
import type { EntityDescription, SvcContext } from '@svc/core';
import type { JsonSchema } from './json-schema';
import { outputSchemaOf } from './tool-output-schema';
import { problemResult, successResult, type SvcToolResult } from './tool-result';
import { argumentsException, validateArguments } from './validate-arguments';
import type { SvcTool, SvcToolDefinition } from './svc-tool';

export const DESCRIBE_TOOL_NAME = 'svc_describe';

const DESCRIBED_ENTITY: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    tools: { type: 'object', additionalProperties: { type: 'string' }, description: 'Tool name by operation.' },
    key: { type: 'array', items: { type: 'string' } },
    fields: { type: 'array', items: { type: 'object' } },
    filter: { type: 'object' },
    sort: { type: 'array', items: { type: 'string' } },
    include: { type: 'array', items: { type: 'string' } },
    search: { type: 'array', items: { type: 'string' } },
    pagination: { type: 'object' },
    write: { type: 'object' },
    softDelete: { type: 'boolean' },
  },
  required: ['name', 'tools', 'fields'],
};

const DESCRIBE_SUCCESS: JsonSchema = {
  type: 'object',
  properties: { entities: { type: 'array', items: DESCRIBED_ENTITY } },
  required: ['entities'],
};

export const DESCRIBE_DEFINITION: SvcToolDefinition = Object.freeze({
  name: DESCRIBE_TOOL_NAME,
  title: 'Describe the data',
  description:
    'List the entities you may read, with their fields, filter operators per field, sort and include options, paging ' +
    'limits, writable fields, and the tool of each operation you may call. Call it first.',
  inputSchema: {
    type: 'object',
    properties: { entity: { type: 'string', description: 'Describe this entity only.' } },
    additionalProperties: false,
  },
  outputSchema: outputSchemaOf(DESCRIBE_SUCCESS),
  annotations: {
    title: 'Describe the data',
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
});

function describeEntity(description: EntityDescription, tools: Record<string, string>): Record<string, unknown> {
  const readable = description.fields.filter((field) => field.readable);
  return {
    name: description.name,
    tools,
    key: [...description.lookup.fields],
    fields: readable.map((field) => ({
      name: field.name,
      kind: field.kind,
      nullable: field.nullable,
      ...(field.enumValues ? { enum: [...field.enumValues] } : {}),
    })),
    filter: Object.fromEntries(description.filter.fields.map((field) => [field.name, [...field.operators]])),
    sort: description.pagination.ownsSort ? [] : [...description.sort.fields],
    include: description.include.relations.map((relation) => relation.name),
    ...(description.search ? { search: [...description.search.fields] } : {}),
    pagination:
      description.pagination.strategy === 'none'
        ? { paged: false }
        : {
            paged: true,
            defaultLimit: description.pagination.defaultLimit,
            maxLimit: description.pagination.maxLimit,
            counted: description.pagination.count,
          },
    write: Object.fromEntries(
      (['create', 'update', 'patch'] as const)
        .filter((slot) => tools[`${slot}One`] !== undefined)
        .map((slot) => [
          slot,
          {
            fields: description.write[slot].fields.map((field) => field.name),
            required: [...description.write[slot].required],
            // A reference the row needs, writable as itself or as its foreign-key column: one of the two.
            ...(description.write[slot].requiredOneOf.length > 0
              ? { requiredOneOf: description.write[slot].requiredOneOf.map((pair) => [...pair]) }
              : {}),
          },
        ]),
    ),
    softDelete: description.softDelete,
  };
}

/**
 * Runs `svc_describe` for a caller over the entity tools, naming each tool as the layout serves it (in the compact
 * layout, the operation's compact tool, which takes the entity as `entity`).
 */
export async function describeForCaller(
  tools: readonly SvcTool[],
  args: Record<string, unknown> | undefined,
  context: SvcContext,
  nameOf: (tool: SvcTool) => string = (tool) => tool.name,
): Promise<SvcToolResult> {
  try {
    const problems = validateArguments(DESCRIBE_DEFINITION.inputSchema, args ?? {});
    if (problems.length > 0) throw argumentsException(problems);
    const only = typeof args?.['entity'] === 'string' ? args['entity'] : undefined;
    const byEntity = new Map<string, SvcTool[]>();
    for (const tool of tools) {
      const name = tool.service.describe().name;
      if (only !== undefined && name !== only) continue;
      byEntity.set(name, [...(byEntity.get(name) ?? []), tool]);
    }
    const entities: Record<string, unknown>[] = [];
    for (const entityTools of byEntity.values()) {
      const lister = entityTools.find((tool) => tool.lists);
      if (!lister || !(await lister.permits(context))) continue;
      const allowed: Record<string, string> = {};
      for (const tool of entityTools) if (await tool.permits(context)) allowed[tool.operation] = nameOf(tool);
      // As the caller's role sees the entity (`access`): no field it may not read, no slot field it may not write.
      entities.push(describeEntity(entityTools[0]!.service.describe(context), allowed));
    }
    return successResult({ entities });
  } catch (error) {
    return problemResult(error);
  }
}
