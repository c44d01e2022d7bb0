/**
 * The body of an answer without errors, written here rather than by graphql-http. graphql-http encodes every answer
 * with a replacer (which turns a plain `Error` into its message); a replacer takes V8's `JSON.stringify` off its fast
 * path, which costs a page of rows about a third more. An answer without errors holds no `Error` (its data are
 * serialized scalars), so plain `JSON.stringify` writes the same bytes. Status and content type are graphql-http's for
 * a successful operation: 200, and the media type it picks from `Accept` (picked the same way below; graphql-http
 * answers 406 before execution when there is none, so this never sees that case).
 */
import type { ExecutionResult } from 'graphql';
import type { Request as GraphqlHttpRequest, Response as GraphqlHttpResponse } from 'graphql-http';

type MediaType = 'application/graphql-response+json' | 'application/json';

/** The answer's `[body, init]` when it has no errors and a media type is acceptable; undefined for graphql-http. */
export function errorlessAnswer(
  request: GraphqlHttpRequest<unknown, unknown>,
  result: ExecutionResult,
): GraphqlHttpResponse | undefined {
  if (result.errors !== undefined || !('data' in result)) return undefined;
  const mediaType = acceptedMediaType(headerOf(request, 'accept'));
  if (!mediaType) return undefined;
  return [
    JSON.stringify(result),
    {
      status: 200,
      statusText: 'OK',
      headers: {
        'content-type':
          mediaType === 'application/json'
            ? 'application/json; charset=utf-8'
            : 'application/graphql-response+json; charset=utf-8',
      },
    },
  ];
}

/**
 * The media type graphql-http answers with: the first entry of `Accept` that is `application/graphql-response+json`
 * in UTF-8, or `application/json`, `application/*` or `*\/*` in UTF-8 (as `application/json`); weights are not read.
 * No `Accept` is `*\/*`.
 */
export function acceptedMediaType(accept: string | null | undefined): MediaType | undefined {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) || 'charset=utf-8';
    if (mediaType === 'application/graphql-response+json' && charset === 'charset=utf-8')
      return 'application/graphql-response+json';
    if (
      (mediaType === 'application/json' || mediaType === 'application/*' || mediaType === '*/*') &&
      (charset === 'charset=utf-8' || charset === 'charset=utf8')
    )
      return 'application/json';
  }
  return undefined;
}

function headerOf(request: GraphqlHttpRequest<unknown, unknown>, name: string): string | null | undefined {
  const headers = request.headers as { get?: (name: string) => string | null } & Record<string, unknown>;
  if (typeof headers.get === 'function') return headers.get(name);
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
