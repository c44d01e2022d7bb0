/**
 * `envelope` on REST: which bodies an operation wraps (`{ "article": {...} }`), renames (`{ "articles": [...],
 * "articlesCount": 2 }`) and unwraps, decided once per operation from its description, so the routes and the OpenAPI
 * document agree.
 */
import { ValidationFailedException, type OperationDescription, type ResolvedEnvelope } from '@svc/core';

/** What the envelope does to one operation: the key its item answer and its body take, the names its list takes. */
export interface EnvelopePlan {
  /** An item answer (an object) is served as `{ [item]: answer }`. */
  readonly item?: string;
  /** A list answer's `items` and `total` are served under these names. */
  readonly list?: { readonly items: string; readonly total: string };
  /** The single-row body is read from under this key. */
  readonly body?: string;
}

/** The plan of one operation, or undefined where the envelope leaves its bodies as they are. */
export function envelopePlanOf(
  envelope: ResolvedEnvelope | undefined,
  operation: Pick<OperationDescription, 'answers' | 'body' | 'items' | 'cardinality'>,
): EnvelopePlan | undefined {
  if (!envelope) return undefined;
  const item = operation.answers === 'item' ? envelope.item : undefined;
  const list = operation.answers === 'list' ? envelope.list : undefined;
  const slot = operation.body === 'create' || operation.body === 'update' || operation.body === 'patch';
  const single = (slot && !operation.items && operation.cardinality === 'one') || operation.body === 'custom';
  const body = single ? envelope.item : undefined;
  if (item === undefined && list === undefined && body === undefined) return undefined;
  return { ...(item ? { item } : {}), ...(list ? { list } : {}), ...(body ? { body } : {}) };
}

/** The row of a wrapped body: `body[key]`; a body without that key, or with others beside it, is a 400. */
export function unwrapBody(key: string, body: unknown): unknown {
  const expected = `Send the body as { "${key}": { ... } }.`;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailedException([
      { field: key, code: 'required', detail: `The body is not an object. ${expected}` },
    ]);
  }
  const errors = Object.keys(body)
    .filter((name) => name !== key)
    .map((name) => ({
      field: name,
      code: 'unknown',
      detail: `${name} is not taken beside ${key}. Send the fields under ${key}: ${expected}`,
    }));
  if (!Object.prototype.hasOwnProperty.call(body, key))
    errors.unshift({ field: key, code: 'required', detail: `The body has no ${key}. ${expected}` });
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return (body as Record<string, unknown>)[key];
}

/** An answer in the envelope: an item object wrapped, a list's `items` and `total` renamed in place. */
export function wrapAnswer(plan: EnvelopePlan, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  if (plan.item) return { [plan.item]: body };
  if (!plan.list) return body;
  const names: Record<string, string> = { items: plan.list.items, total: plan.list.total };
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [names[name] ?? name, value]));
}
