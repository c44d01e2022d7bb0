/**
 * The compact tool layout (`tools: 'compact'`): one tool per standard operation that some served entity has on
 * (`find_many`, `patch_one`, ...), which names its entity in an `entity` argument, in place of one tool per entity and
 * operation. `svc_describe` stays the describe tool. The input schema holds each entity's own input schema as an
 * `if`/`then` branch on `entity` (its `$defs` renamed per entity: `#/$defs/filter` becomes `#/$defs/BookFilter`), and
 * the top-level `properties` name every argument some entity takes, loosely typed, for clients that read no further.
 * A filter's field condition that several fields take alike is given once under `$defs`, which keeps the entities'
 * filters, the bulk of the schema, from repeating one another. A call runs the named entity's own tool with the other arguments, so what it checks, and the guards, policy and
 * scoping it runs under, are exactly those of the entity layout.
 */
import { QueryInvalidException, type SvcContext } from '@svc/core';
import { didYouMean, mapSchemaRefs, STANDARD_OPERATIONS } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';
import type { SvcTool, SvcToolAnnotations, SvcToolDefinition } from './svc-tool';
import { snakeCase } from './tool-name';
import { PROBLEM_SCHEMA } from './tool-output-schema';
import { problemResult, type SvcToolResult } from './tool-result';
import { toErrorItems, validateArguments, type ArgumentProblem } from './validate-arguments';

/** The compact tool of an operation: the operation in snake case (`findMany` -> `find_many`). */
export function compactToolNameOf(operation: string): string {
  return snakeCase(operation);
}

/** How many narrowed definitions a compact tool keeps. */
const NARROWED_KEPT = 16;

/** What a top-level argument says when its shape depends on the entity. */
const PER_ENTITY = 'Its shape depends on entity.';

/** The filter's own keys that group conditions, never a field's. */
const FILTER_GROUPS = new Set(['and', 'or', 'not']);

/** One entity's part of a compact tool, worked out once. */
interface EntityPart {
  readonly entity: string;
  readonly tool: SvcTool;
  /** Which definition of the tool it is made of: 0 for the tool's own, another number per role's view (`access`). */
  readonly view: number;
  /** The entity's arguments as its own tool types them, `$ref`s renamed. */
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: readonly string[];
  /** The entity's `$defs`, renamed (`BookFilter`). */
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** The name of its filter among them, when it takes one. */
  readonly filter?: string;
  /** `{ if: <entity is this one>, then: <its input schema> }`. */
  readonly branch: JsonSchema;
  /** What a success of the entity's tool serves. */
  readonly success: JsonSchema;
}

export class SvcCompactTool {
  readonly name: string;
  /** The definition for a caller who may call the operation on every entity serving it. */
  readonly definition: SvcToolDefinition;
  private readonly parts: readonly EntityPart[];
  private readonly byEntity: ReadonlyMap<string, SvcTool>;
  /** The definitions of the last few sets of entities callers were allowed (and the views they see), by their parts. */
  private readonly narrowed = new Map<string, SvcToolDefinition>();
  /** The part of each entity tool's definition for a role's view (`access`), made once per view. */
  private readonly viewParts = new WeakMap<SvcToolDefinition, EntityPart>();
  private views = 0;

  constructor(
    /** The standard operation's id. */
    readonly operation: string,
    /** The entity tools of that operation, one per entity, in the order the compact schema lists them. */
    tools: readonly SvcTool[],
  ) {
    this.name = compactToolNameOf(operation);
    this.parts = tools.map((tool) => partOf(tool, tool.definition, 0));
    this.byEntity = new Map(this.parts.map((part) => [part.entity, part.tool]));
    this.definition = definitionOf(this.name, operation, this.parts);
  }

  /** The entity tools a call may run, by entity name. */
  get entities(): readonly string[] {
    return [...this.byEntity.keys()];
  }

  /**
   * The definition `tools/list` serves a caller who may call the operation on the entities whose tools are in
   * `allowed` (all of them without it): their branches only, so a caller never sees the schema of an entity it may not
   * use, each as the caller's role sees that entity (`access`); undefined when there is none.
   */
  definitionFor(context: SvcContext, allowed?: ReadonlySet<SvcTool>): SvcToolDefinition | undefined {
    const parts = this.parts
      .filter((part) => allowed?.has(part.tool) ?? true)
      .map((part) => this.partFor(part, context));
    if (parts.length === this.parts.length && parts.every((part) => part.view === 0)) return this.definition;
    if (parts.length === 0) return undefined;
    const key = parts.map((part) => `${part.entity}#${part.view}`).join('\n');
    let definition = this.narrowed.get(key);
    if (!definition) {
      definition = definitionOf(this.name, this.operation, parts);
      // Callers fall into a few roles, so a few sets cover them; the oldest one goes first.
      if (this.narrowed.size >= NARROWED_KEPT) this.narrowed.delete(this.narrowed.keys().next().value!);
      this.narrowed.set(key, definition);
    }
    return definition;
  }

  /** The entity's part as the caller's role sees the entity: `part` itself where the role has no rule. */
  private partFor(part: EntityPart, context: SvcContext): EntityPart {
    const definition = part.tool.definitionFor(context);
    if (definition === part.tool.definition) return part;
    let viewed = this.viewParts.get(definition);
    if (!viewed) this.viewParts.set(definition, (viewed = partOf(part.tool, definition, ++this.views)));
    return viewed;
  }

  /**
   * Runs the call on the entity it names, with the other arguments: a missing or unknown `entity` is refused as an
   * argument problem (SVC_QUERY_INVALID, naming `entity`), before anything else is checked.
   */
  async call(args: Record<string, unknown> | undefined, context: SvcContext): Promise<SvcToolResult> {
    const { entity, ...rest } = args ?? {};
    const tool = typeof entity === 'string' ? this.byEntity.get(entity) : undefined;
    if (!tool) return problemResult(new QueryInvalidException(toErrorItems(this.entityProblems(entity))));
    return tool.call(rest, context);
  }

  /** What is wrong with `entity`, as the argument check words it, with the closest entity name when there is one. */
  private entityProblems(entity: unknown): ArgumentProblem[] {
    const names = this.entities;
    const schema: JsonSchema = {
      type: 'object',
      properties: { entity: { type: 'string', enum: names } },
      required: ['entity'],
    };
    return validateArguments(schema, entity === undefined ? {} : { entity }).map((problem) => {
      const closest = typeof entity === 'string' ? closestName(entity, names) : undefined;
      return closest ? { ...problem, detail: `${problem.detail} Did you mean '${closest}'?` } : problem;
    });
  }
}

/** The entity's part: its tool's input schema (of `definition`) as a branch, `$defs` renamed after the entity. */
function partOf(tool: SvcTool, definition: SvcToolDefinition, view: number): EntityPart {
  const entity = tool.service.describe().name;
  const {
    $defs: defs = {},
    properties = {},
    required = [],
    ...rest
  } = definition.inputSchema as {
    $defs?: Record<string, JsonSchema>;
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  // A def the entity's description named (`BookFilter`) keeps its name; any other is named after the entity.
  const renames = new Map(
    Object.keys(defs).map((name) => [name, name.startsWith(entity) ? name : `${entity}${capitalize(name)}`]),
  );
  const filterRef = properties['filter']?.['$ref'];
  const filterDef = typeof filterRef === 'string' ? filterRef.slice('#/$defs/'.length) : undefined;
  const renamed = <T>(value: T): T => renameRefs(value, renames) as T;
  const own = renamed(properties);
  return {
    entity,
    tool,
    view,
    properties: own,
    required,
    defs: Object.fromEntries(Object.entries(defs).map(([name, schema]) => [renames.get(name)!, renamed(schema)])),
    ...(filterDef !== undefined && renames.has(filterDef) ? { filter: renames.get(filterDef) } : {}),
    branch: {
      if: { properties: { entity: { const: entity } }, required: ['entity'] },
      // `entity` is declared here too, as anything (the `if` pinned it), since the branch takes no undeclared argument.
      then: { ...renamed(rest), properties: { entity: {}, ...own }, ...(required.length > 0 ? { required } : {}) },
    },
    success: (definition.outputSchema['anyOf'] as JsonSchema[]).find((schema) => schema !== PROBLEM_SCHEMA)!,
  };
}

/** The tool over the entities of `parts`. */
function definitionOf(name: string, operation: string, parts: readonly EntityPart[]): SvcToolDefinition {
  const entities = parts.map((part) => part.entity);
  const facts = STANDARD_OPERATIONS.find((candidate) => candidate.id === operation);
  const title =
    facts?.wording.summary({ one: 'row', many: 'rows', key: 'key', required: '', softDelete: false }) ?? operation;
  const names = new Set(parts.flatMap((part) => Object.keys(part.properties)));
  const properties: Record<string, JsonSchema> = {
    entity: { type: 'string', enum: entities, description: 'The entity the call reads or writes.' },
  };
  for (const argument of names) properties[argument] = looseSchemaOf(argument, parts);
  // An argument every entity requires is required here too, so a client reading only the top level knows it.
  const required = [...names].filter((argument) => parts.every((part) => part.required.includes(argument)));
  const successes = new Map(parts.map((part) => [JSON.stringify(part.success), part.success]));
  return Object.freeze({
    name,
    title,
    description:
      `${title} (entity: ${listOf(entities)}); ` +
      "svc_describe gives each entity's fields, filter operators and limits.",
    inputSchema: {
      type: 'object',
      properties,
      required: ['entity', ...required],
      additionalProperties: false,
      allOf: parts.map((part) => part.branch),
      ...(parts.some((part) => Object.keys(part.defs).length > 0) ? { $defs: sharedConditions(parts) } : {}),
    },
    // Each entity's success (the same shape once), or the problem of a refused or failed call.
    outputSchema: { type: 'object', anyOf: [...successes.values(), PROBLEM_SCHEMA] },
    annotations: annotationsOf(
      title,
      parts.map((part) => part.tool.definition.annotations),
    ),
  });
}

/**
 * Read-only only if every entity's operation is, destructive if any is, idempotent only if every one is; a hint no
 * entity gives is left out.
 */
function annotationsOf(title: string, hints: readonly SvcToolAnnotations[]): SvcToolAnnotations {
  const given = (key: 'destructiveHint' | 'idempotentHint') => hints.some((hint) => hint[key] !== undefined);
  return {
    title,
    readOnlyHint: hints.every((hint) => hint.readOnlyHint),
    ...(given('destructiveHint') ? { destructiveHint: hints.some((hint) => hint.destructiveHint === true) } : {}),
    ...(given('idempotentHint') ? { idempotentHint: hints.every((hint) => hint.idempotentHint === true) } : {}),
    openWorldHint: false,
  };
}

/**
 * An argument at the top level: the types the entities give it (an object for a `$ref`), and its description when
 * they all word it alike. The branch of the entity named holds its exact shape.
 */
function looseSchemaOf(argument: string, parts: readonly EntityPart[]): JsonSchema {
  const schemas = parts.flatMap((part) => (part.properties[argument] ? [part.properties[argument]] : []));
  const types = new Set<string>();
  let typed = true;
  for (const schema of schemas) {
    const type = schema['$ref'] !== undefined ? 'object' : schema['type'];
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type)) for (const one of type as string[]) types.add(one);
    else typed = false;
  }
  const descriptions = new Set(schemas.map((schema) => schema['description']));
  const [description] = descriptions;
  return {
    ...(typed && types.size > 0 ? { type: types.size === 1 ? [...types][0] : [...types] } : {}),
    description: descriptions.size === 1 && typeof description === 'string' ? description : PER_ENTITY,
  };
}

/**
 * The entities' `$defs`, where a field condition of a filter (`{ eq, ne, in, ... }` for one field) that more than one
 * field has alike is given once, as `#/$defs/stringCondition` and the like, and referenced: fields of one kind
 * usually take the same operators, so the entities' filters, the bulk of the schema, mostly share them.
 */
function sharedConditions(parts: readonly EntityPart[]): JsonSchema {
  const defs: Record<string, JsonSchema> = Object.assign({}, ...parts.map((part) => part.defs));
  const filters = parts.flatMap((part) => (part.filter && defs[part.filter] ? [part.filter] : []));
  const fieldsOf = (filter: string) =>
    Object.entries(defs[filter]!['properties'] as Record<string, JsonSchema>).filter(
      ([name]) => !FILTER_GROUPS.has(name),
    );
  const seen = new Map<string, number>();
  for (const filter of filters)
    for (const [, condition] of fieldsOf(filter)) {
      const text = JSON.stringify(condition);
      seen.set(text, (seen.get(text) ?? 0) + 1);
    }
  const shared = new Map<string, string>();
  for (const filter of filters) {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, condition] of Object.entries(defs[filter]!['properties'] as Record<string, JsonSchema>)) {
      const text = JSON.stringify(condition);
      if (FILTER_GROUPS.has(name) || (seen.get(text) ?? 0) < 2) {
        properties[name] = condition;
        continue;
      }
      let ref = shared.get(text);
      if (!ref) {
        ref = freeName(`${conditionKindOf(condition)}Condition`, defs);
        defs[ref] = condition;
        shared.set(text, ref);
      }
      properties[name] = { $ref: `#/$defs/${ref}` };
    }
    defs[filter] = { ...defs[filter], properties };
  }
  return defs;
}

/** What a field condition compares (`string`, `integer`), from its operands' values (the null checks aside). */
function conditionKindOf(condition: JsonSchema): string {
  const operands = (condition['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  for (const [operator, operand] of Object.entries(operands)) {
    if (operator === 'isNull' || operator === 'isNotNull') continue;
    const type = operand['type'] === 'array' ? (operand['items'] as JsonSchema | undefined)?.['type'] : operand['type'];
    if (typeof type === 'string') return type;
  }
  return 'field';
}

/** `name`, or `name2`, `name3`, ... when `defs` holds it. */
function freeName(name: string, defs: Readonly<Record<string, JsonSchema>>): string {
  if (!Object.hasOwn(defs, name)) return name;
  let index = 2;
  while (Object.hasOwn(defs, `${name}${index}`)) index++;
  return `${name}${index}`;
}

/** `value` with every `#/$defs/<name>` pointer renamed as `renames` says, data values left alone. */
function renameRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  return mapSchemaRefs(value, (pointer, ref) => ({ ...ref, $ref: renamedPointer(pointer, renames) }));
}

function renamedPointer(pointer: string, renames: ReadonlyMap<string, string>): string {
  const match = /^#\/\$defs\/([^/]+)(.*)$/.exec(pointer);
  const renamed = match ? renames.get(match[1]!) : undefined;
  return renamed ? `#/$defs/${renamed}${match![2]}` : pointer;
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `A`, `A or B`, `A, B or C`. */
function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * The entity name a misspelt one most likely meant: the same letters in another case or spelling (`book_review` for
 * `BookReview`), else core's closest within a few edits.
 */
function closestName(input: string, names: readonly string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return names.find((name) => plain(name) === plain(input)) ?? didYouMean(input, names);
}
