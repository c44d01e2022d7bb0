/**
 * Conduit's error bodies, `{ "errors": { "<field>": ["<message>"] } }`, written from the problem Svc would serve
 * (`SvcModule.forRoot({ errors: { format } })`): 401 names the token, 403 and 404 the entity (as the API calls it:
 * a user is a `profile`), a validation failure (400 or 422) is a 422 naming each field, a conflict a 409 naming the
 * fields already taken. Other errors keep Svc's problem+json.
 */
import type { ErrorAnswer, ProblemDetails, SvcErrorItem } from '@svc/core';

/** How the API names each entity in its errors, where that is not the entity's name lower-cased. */
export const ENTITY_KEYS: Readonly<Record<string, string>> = { User: 'profile' };

/** The item codes that mean a value is missing or empty. */
const BLANK = new Set(['required', 'blank', 'isNotEmpty', 'too_small', 'minLength']);

export function conduitErrors(problem: Readonly<ProblemDetails>, entityKeys = ENTITY_KEYS): ErrorAnswer | undefined {
  const entity = problem.entity ? (entityKeys[problem.entity] ?? problem.entity.toLowerCase()) : 'request';
  const answer = (status: number, errors: Record<string, string[]>) => ({ status, body: { errors } });
  const items = problem.errors ?? [];
  switch (problem.status) {
    case 401:
      return answer(401, items.length > 0 ? byField(items, (item) => item.detail) : { token: ['is missing'] });
    case 403:
      return answer(403, { [entity]: ['forbidden'] });
    case 404:
      return answer(404, { [problem.code === 'SVC_NOT_FOUND' ? entity : 'route']: ['not found'] });
    case 409:
      return answer(
        409,
        items.length > 0 ? byField(items, () => 'has already been taken') : { [entity]: ['conflict'] },
      );
    case 400:
    case 422:
      if (problem.code !== 'SVC_VALIDATION_FAILED' && problem.code !== 'SVC_MALFORMED_REQUEST') return undefined;
      return answer(422, items.length > 0 ? byField(items, messageOf) : { body: [problem.detail] });
    default:
      return undefined;
  }
}

/** `{ <field>: [message, ...] }`; an item that names no field is filed under `body`. */
function byField(items: readonly SvcErrorItem[], message: (item: SvcErrorItem) => string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const item of items) (errors[item.field || item.param || 'body'] ??= []).push(message(item));
  return errors;
}

function messageOf(item: SvcErrorItem): string {
  return BLANK.has(item.code) ? "can't be blank" : item.detail;
}
