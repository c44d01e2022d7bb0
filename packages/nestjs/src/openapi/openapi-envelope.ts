/**
 * `envelope` in the OpenAPI document: an operation's body and its success answers as its routes send them (wrapped
 * under the item key, a list's members renamed), and its `filter.params` as plain query parameters.
 */
import type { OperationDescription } from '@svc/core';
import { schemaNameOf } from '@svc/core/spi';
import type { EnvelopePlan } from '../rest-envelope';
import type { ParameterContext, ParameterObject } from './openapi-parameters';
import type { JsonSchema } from './openapi-components';

/** `schema` (a row, or a write body) under the envelope's key: `{ "<key>": schema }`. */
export function wrappedSchema(key: string, schema: JsonSchema): JsonSchema {
  return { type: 'object', properties: { [key]: schema }, required: [key], additionalProperties: false };
}

/** A success answer's schema as the envelope serves it; problems and empty answers stay as they are. */
export function envelopedAnswer(context: ParameterContext, plan: EnvelopePlan, schema: JsonSchema): JsonSchema {
  if (plan.item) return wrappedSchema(plan.item, schema);
  if (!plan.list) return schema;
  const ref = typeof schema['$ref'] === 'string' ? schemaNameOf(schema['$ref']) : undefined;
  const list = ref === undefined ? schema : context.schemas.resolve(context.description, ref);
  const properties = list?.['properties'] as Record<string, JsonSchema> | undefined;
  if (!list || !properties) return schema;
  const names: Record<string, string> = { items: plan.list.items, total: plan.list.total };
  const rename = (name: string) => names[name] ?? name;
  return {
    ...list,
    properties: Object.fromEntries(Object.entries(properties).map(([name, value]) => [rename(name), value])),
    ...(Array.isArray(list['required']) ? { required: (list['required'] as string[]).map(rename) } : {}),
  };
}

/** The plain query parameters of `filter.params` on an operation that reads a list or a count. */
export function filterParamParameters(
  context: ParameterContext,
  operation: OperationDescription,
  params: ReadonlyMap<string, string> | undefined,
): ParameterObject[] {
  if (!params || (operation.query !== 'list' && operation.query !== 'count')) return [];
  return [...params].map(([name, path]) => ({
    name,
    in: 'query',
    required: false,
    description: `Only the rows whose ${path} equals this value: filter[${path}][eq]=<value>. Send it once.`,
    schema: { type: 'string' },
  }));
}
