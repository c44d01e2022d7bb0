/** Typed helpers of the GraphQL suites: a POST with a JSON body, and the shape of a GraphQL-over-HTTP answer. */
import request from 'supertest';
import type { Problem } from './e2e-http';

export interface GraphqlError {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: { readonly code?: string; readonly problem?: Problem };
}

export interface GraphqlAnswer<T = Record<string, unknown>> {
  readonly status: number;
  readonly contentType: string;
  readonly data?: T | null;
  readonly errors?: readonly GraphqlError[];
}

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly path?: string;
}

/** POSTs a GraphQL request as `application/json`, asking for `application/graphql-response+json`. */
export async function postGraphql<T = Record<string, unknown>>(
  server: Parameters<typeof request>[0],
  { query, variables, headers = {}, path = '/graphql' }: GraphqlRequest,
): Promise<GraphqlAnswer<T>> {
  const response = await request(server)
    .post(path)
    .set({ accept: 'application/graphql-response+json', 'content-type': 'application/json', ...headers })
    .send(JSON.stringify({ query, variables }));
  const body = JSON.parse(response.text || '{}') as { data?: T | null; errors?: GraphqlError[] };
  return {
    status: response.status,
    contentType: String(response.headers['content-type'] ?? ''),
    data: body.data,
    errors: body.errors,
  };
}

/** The data of an answer that must have no errors. */
export function dataOf<T>(answer: GraphqlAnswer<T>): T {
  if (answer.errors?.length || !answer.data) throw new Error(`Expected data, got ${JSON.stringify(answer)}`);
  return answer.data;
}

/** The first error of an answer that must have one with this code. */
export function errorOf(answer: GraphqlAnswer<unknown>, code: string): GraphqlError {
  const error = answer.errors?.find((candidate) => candidate.extensions?.code === code);
  if (!error) throw new Error(`Expected an error ${code}, got ${JSON.stringify(answer)}`);
  return error;
}

/**
 * How many values a GraphQL answer's `data` holds, as the operation cost counts them: every key of every object, with
 * list items counted by their keys. `isLeaf` names objects that are one value however they nest (a JSON column's).
 */
export function answerValues(value: unknown, isLeaf: (value: object) => boolean = () => false): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + answerValues(item, isLeaf), 0);
  if (value !== null && typeof value === 'object' && !isLeaf(value)) {
    return Object.values(value).reduce<number>((sum, item) => sum + 1 + answerValues(item, isLeaf), 0);
  }
  return 0;
}
