/**
 * The parameters of one operation, rendered from its schemas: each path parameter, each query property in REST's
 * spelling, and each conditional header. How a value travels in the query string follows from its schema alone: a
 * named object (the filter) is JSON, and its members that are objects of values are also taken in bracket form
 * (`filter[title][eq]`); an object of values is taken in bracket form only (`page[number]`); a list is a comma list;
 * anything else is a plain value.
 */
import type { EntityDescription, OperationDescription } from '@svc/core';
import { schemaNameOf } from '@svc/core/spi';
import type { DocumentSchemas, JsonSchema } from './openapi-components';

/** One OpenAPI parameter object. */
export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  /** What the value is; a parameter sent as JSON has `content` instead. */
  readonly schema?: JsonSchema;
  readonly content?: Record<string, { readonly schema: JsonSchema }>;
  readonly style?: 'form' | 'simple';
  readonly explode?: boolean;
}

/** Where the route is documented, and how schemas are named there. */
export interface ParameterContext {
  readonly description: EntityDescription;
  readonly schemas: DocumentSchemas;
  /** The controller's name without `Controller`, which names its schemas where another controller's differ. */
  readonly owner: string;
}

/**
 * The parameters of an operation routed on `path` (Nest syntax, `:name` segments). `standsIn` names the query
 * properties a path segment of this form takes the place of (a removal's `/:memberId` for `ids`).
 */
export function parametersOf(
  context: ParameterContext,
  operation: OperationDescription,
  path: string,
  standsIn: readonly string[] = [],
): ParameterObject[] {
  const { params, query, queryNames, headers } = operation.schemas;
  const parameters: ParameterObject[] = [];
  const pathSchemas = propertiesOf(params);
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    parameters.push({ name: name!, in: 'path', required: true, ...pathValue(name!, pathSchemas[name!]) });
  }
  const required = new Set(requiredOf(query));
  for (const [property, schema] of Object.entries(propertiesOf(query))) {
    if (standsIn.includes(property)) continue;
    parameters.push(...queryParameters(context, queryNames[property] ?? property, schema, required.has(property)));
  }
  for (const [name, schema] of Object.entries(propertiesOf(headers))) {
    const { description, ...value } = schema;
    parameters.push({ name, in: 'header', required: false, description: description as string, schema: value });
  }
  return parameters;
}

/** A path value: a composite key travels as its fields' values, comma separated, in order. */
function pathValue(name: string, schema: JsonSchema | undefined): Pick<ParameterObject, 'description' | 'schema'> {
  if (!schema)
    return { description: name === 'memberId' ? 'The member to remove.' : `The ${name}.`, schema: { type: 'string' } };
  const { description, ...value } = schema;
  if (value['type'] !== 'object') return { description: description as string, schema: value };
  const fields = requiredOf(value);
  return {
    description: `${String(description ?? '')} Its ${fields.join(', ')}, comma separated, in that order.`.trim(),
    schema: { type: 'string' },
  };
}

/** The parameters one query property is sent as, by its schema. */
export function queryParameters(
  context: ParameterContext,
  name: string,
  schema: JsonSchema,
  required: boolean,
): ParameterObject[] {
  const { description, ...value } = schema;
  const text = description as string | undefined;
  const named = typeof value['$ref'] === 'string' ? schemaNameOf(value['$ref']) : undefined;
  if (named !== undefined) {
    const target = context.schemas.resolve(context.description, named);
    const said = text ?? (target?.['description'] as string | undefined);
    // A JSON value in the query string: OpenAPI's `content` map, which Swagger UI edits as JSON and clients serialise.
    const json: ParameterObject = {
      name,
      in: 'query',
      required,
      ...(said ? { description: `${said} In JSON form; the bracket parameters may stand in for it.` } : {}),
      content: { 'application/json': { schema: context.schemas.render(value, context.description, context.owner) } },
    };
    return [json, ...(target ? bracketParameters(context, name, target, 2) : [])];
  }
  if (value['type'] === 'object') return bracketParameters(context, name, value, 1);
  return [plainParameter(context, name, value, text, required)];
}

/**
 * The bracket form of an object's members (`name[member]`), `depth` levels down: only members that are values or
 * lists of values, or (above the last level) objects of them; a member that refers to a schema (a filter's groups)
 * is taken in JSON form alone.
 */
function bracketParameters(
  context: ParameterContext,
  name: string,
  schema: JsonSchema,
  depth: number,
): ParameterObject[] {
  const out: ParameterObject[] = [];
  for (const [member, inner] of Object.entries(propertiesOf(schema))) {
    if (inner['$ref'] !== undefined || (inner['type'] === 'array' && (inner['items'] as JsonSchema)?.['$ref']))
      continue;
    const spelled = `${name}[${member}]`;
    if (inner['type'] === 'object') {
      if (depth > 1) out.push(...bracketParameters(context, spelled, inner, depth - 1));
      continue;
    }
    const { description, ...value } = inner;
    out.push(plainParameter(context, spelled, value, sentence(description as string | undefined), false));
  }
  return out;
}

function plainParameter(
  context: ParameterContext,
  name: string,
  value: JsonSchema,
  description: string | undefined,
  required: boolean,
): ParameterObject {
  const schema = context.schemas.render(value, context.description, context.owner);
  const list = value['type'] === 'array';
  return {
    name,
    in: 'query',
    required,
    ...(description ? { description: list ? `${description} A comma list.` : description } : {}),
    schema,
    ...(list ? { style: 'form' as const, explode: false } : {}),
  };
}

/** A help line as a sentence: capitalised, closed with a period. */
function sentence(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const capital = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  return (schema?.['required'] as string[] | undefined) ?? [];
}

/** The bracket parameters of the entity's filter (the events route takes them), when it has a filter. */
export function filterParameters(context: ParameterContext): ParameterObject[] {
  const filter = context.schemas.resolve(context.description, `${context.description.name}Filter`);
  return filter ? bracketParameters(context, 'filter', filter, 2) : [];
}
