/**
 * The responses of one operation, rendered from its schemas: each status with its description, headers and body
 * (`application/problem+json` for a problem, JSON otherwise).
 */
import type { OperationDescription } from '@svc/core';
import type { ParameterContext } from './openapi-parameters';
import type { JsonSchema } from './openapi-components';
import type { EnvelopePlan } from '../rest-envelope';
import { envelopedAnswer } from './openapi-envelope';

/** One OpenAPI response object. */
export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, { readonly description: string; readonly schema: JsonSchema }>;
  readonly content?: Record<string, { readonly schema: JsonSchema }>;
}

/** Every response of an operation, keyed by status; `plan`: the envelope its successes are served in. */
export function responsesOf(
  context: ParameterContext,
  operation: OperationDescription,
  plan?: EnvelopePlan,
): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(operation.schemas.responses)) {
    const type = response.problem ? 'application/problem+json' : 'application/json';
    const schema =
      response.schema && plan && !response.problem && status.startsWith('2')
        ? envelopedAnswer(context, plan, response.schema)
        : response.schema;
    responses[status] = {
      description: response.description,
      ...(response.headers ? { headers: { ...response.headers } as ResponseObject['headers'] } : {}),
      ...(schema
        ? {
            content: {
              [type]: { schema: context.schemas.render(schema, context.description, context.owner) },
            },
          }
        : {}),
    };
  }
  return responses;
}
