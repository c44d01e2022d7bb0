/** The request body of one operation, rendered from its schemas: JSON, and the other media types it takes. */
import type { OperationDescription } from '@svc/core';
import type { ParameterContext } from './openapi-parameters';
import type { JsonSchema } from './openapi-components';
import type { EnvelopePlan } from '../rest-envelope';
import { wrappedSchema } from './openapi-envelope';

/** One OpenAPI request body object. */
export interface RequestBodyObject {
  readonly required: boolean;
  readonly description?: string;
  readonly content: Record<string, { readonly schema: JsonSchema }>;
}

/** `plan`: the envelope the routes read a single-row body from (its JSON body only; a JSON Patch is sent bare). */
export function requestBodyOf(
  context: ParameterContext,
  operation: OperationDescription,
  plan?: EnvelopePlan,
): RequestBodyObject | undefined {
  const body = operation.schemas.body;
  if (!body) return undefined;
  const render = (schema: JsonSchema) => context.schemas.render(schema, context.description, context.owner);
  return {
    required: body.required,
    ...(body.description ? { description: body.description } : {}),
    content: {
      'application/json': { schema: render(plan?.body ? wrappedSchema(plan.body, body.schema) : body.schema) },
      ...Object.fromEntries(
        Object.entries(body.alternatives ?? {}).map(([type, schema]) => [type, { schema: render(schema) }]),
      ),
    },
  };
}
