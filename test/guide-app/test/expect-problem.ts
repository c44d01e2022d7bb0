/** One assertion for Svc's errors: the status, the problem-details media type and the catalog code. */
import type { Response } from 'supertest';

export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  /** One entry per problem: a query or route parameter (`param`) or a body field (`field`). */
  readonly errors?: readonly { readonly param?: string; readonly field?: string; readonly code: string }[];
}

/** Fails unless the response is problem details with this status and code; returns the problem to check further. */
export function expectProblem(response: Response, status: number, code: string): Problem {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code });
  return response.body as Problem;
}
