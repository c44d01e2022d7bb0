/**
 * `envelope`: the keys REST wraps an entity's bodies in (`{ "article": {...} }`, `{ "articles": [...],
 * "articlesCount": 2 }`), checked and resolved once at bootstrap. GraphQL and MCP do not read it.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import { suggestion } from './did-you-mean';

/** `envelope.list`: the names a list answer's `items` and `total` members take. */
export interface ListEnvelopeConfig {
  /** @default 'items' */
  readonly items?: string;
  /** @default 'total' */
  readonly total?: string;
}

/**
 * `envelope` (REST only): `item` wraps every single-row answer as `{ <item>: row }` and every single-row write body
 * is read from under the same key; `list` renames a list answer's `items` and `total` (`limit`, `offset` and `meta`
 * stay).
 */
export interface EnvelopeConfig {
  readonly item?: string;
  readonly list?: ListEnvelopeConfig;
}

/** `envelope` resolved: each key set, or absent where the answer keeps Svc's own shape. */
export interface ResolvedEnvelope {
  readonly item?: string;
  readonly list?: { readonly items: string; readonly total: string };
}

const KEYS = ['item', 'list'];
const LIST_KEYS = ['items', 'total'];

/** Checks `envelope` and resolves it; undefined when the entity keeps Svc's own shapes. */
export function resolveEnvelope(entity: string, envelope: unknown): ResolvedEnvelope | undefined {
  if (envelope === undefined) return undefined;
  const fail = (path: string, message: string): never => {
    throw new ConfigurationException({ entity, path, message });
  };
  if (!isPlainObject(envelope)) fail('envelope', "must be an object { item?: '<key>', list?: { items?, total? } }.");
  const config = envelope as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (!KEYS.includes(key)) fail(`envelope.${key}`, `is not a known key.${suggestion(key, KEYS)}`);
  const item = config['item'];
  if (item !== undefined) checkKey(item, 'envelope.item', fail);
  const list = config['list'];
  if (list === undefined) return Object.freeze(item === undefined ? {} : { item: item as string });
  if (!isPlainObject(list)) fail('envelope.list', "must be an object { items?: '<key>', total?: '<key>' }.");
  for (const key of Object.keys(list as object))
    if (!LIST_KEYS.includes(key)) fail(`envelope.list.${key}`, `is not a known key.${suggestion(key, LIST_KEYS)}`);
  const { items = 'items', total = 'total' } = list as Record<string, unknown>;
  checkKey(items, 'envelope.list.items', fail);
  checkKey(total, 'envelope.list.total', fail);
  if (items === total)
    fail('envelope.list', `names '${String(items)}' for both items and total. Give each its own key.`);
  if (['limit', 'offset', 'meta'].includes(items as string) || ['limit', 'offset', 'meta'].includes(total as string))
    fail('envelope.list', 'takes the names of limit, offset or meta, which a list answer keeps. Choose other keys.');
  return Object.freeze({
    ...(item === undefined ? {} : { item: item as string }),
    list: Object.freeze({ items: items as string, total: total as string }),
  });
}

/** A plain object (this file imports no settings code, which the entity config's types reach). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkKey(value: unknown, path: string, fail: (path: string, message: string) => never): void {
  if (typeof value !== 'string' || value.length === 0) fail(path, 'must be a non-empty string.');
}
