/**
 * The row a cached findOne keeps so its policy runs again at every hit, encoded as plain JSON: a store that serializes
 * hands back the same values the miss saw (Dates as Dates, not ISO strings). One shallow pass over the row's fields.
 */
import type { Row } from '../persistence/repository-adapter';
import { isPlainJson } from './plain-json';

/** How a field's JSON value is revived. */
export type CachedValueKind = 'date' | 'bigint' | 'number' | 'undefined' | 'bytes' | 'buffer' | 'nested';

export interface CachedRow {
  /** Each field as plain JSON: ISO text for a Date (null if invalid), digits for a bigint, byte values for bytes. */
  readonly values: Record<string, unknown>;
  /** The kind of each field whose value JSON cannot carry as it stands; absent when every field is plain JSON. */
  readonly kinds?: Record<string, CachedValueKind>;
}

/** A container (row, array or object) whose members are not all plain JSON, encoded member by member. */
interface CachedContainer {
  readonly values: Record<string, unknown> | unknown[];
  readonly kinds?: Record<string, CachedValueKind>;
}

/** Node's Buffer when the runtime has one: core imports nothing, but revives a Buffer column as a Buffer. */
const NodeBuffer = (globalThis as { Buffer?: { isBuffer(value: unknown): boolean; from(bytes: number[]): Uint8Array } })
  .Buffer;

/**
 * The row as plain JSON. Dates, bigints, non-finite numbers, -0, undefined fields and byte arrays (Buffer or Uint8Array)
 * are tagged by field; a nested array or object is kept as is when it is plain JSON (a JSON column), else encoded the
 * same way. Any other object is kept as a plain object of its own fields (its prototype is lost, as through
 * structuredClone). Throws on a function or a symbol, which no store can hold.
 */
export function encodeCachedRow(row: Row): CachedRow {
  return encodeContainer(row) as CachedRow;
}

/** The row `encodeCachedRow` encoded, with every tagged field revived. */
export function decodeCachedRow(cached: CachedRow): Row {
  return decodeContainer(cached) as Row;
}

function encodeContainer(container: object): CachedContainer {
  const array = Array.isArray(container);
  const source = container as Record<string, unknown>;
  const keys = array ? Array.from(container, (_, index) => String(index)) : Object.keys(container);
  const values: Record<string, unknown> = array ? ([] as unknown as Record<string, unknown>) : {};
  let kinds: Record<string, CachedValueKind> | undefined;
  for (const key of keys) {
    const [value, kind] = encodeValue(source[key]);
    values[key] = value;
    if (kind !== undefined) (kinds ??= {})[key] = kind;
  }
  return kinds === undefined ? { values } : { values, kinds };
}

function encodeValue(value: unknown): [unknown, CachedValueKind?] {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return [value];
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return [value];
      return [Object.is(value, -0) ? '-0' : String(value), 'number'];
    case 'bigint':
      return [value.toString(), 'bigint'];
    case 'undefined':
      return [null, 'undefined'];
    case 'object':
      break;
    default:
      throw new TypeError(`A ${typeof value} cannot be held in the result cache.`);
  }
  if (value === null) return [null];
  if (value instanceof Date) return [Number.isNaN(value.getTime()) ? null : value.toISOString(), 'date'];
  if (value instanceof Uint8Array) return [Array.from(value), NodeBuffer?.isBuffer(value) ? 'buffer' : 'bytes'];
  if (isPlainJson(value)) return [value];
  return [encodeContainer(value), 'nested'];
}

function decodeContainer({ values, kinds }: CachedContainer): Record<string, unknown> | unknown[] {
  if (kinds === undefined) return values;
  const out: Record<string, unknown> = Array.isArray(values)
    ? ([...values] as unknown as Record<string, unknown>)
    : { ...values };
  for (const key of Object.keys(kinds)) out[key] = decodeValue((values as Record<string, unknown>)[key], kinds[key]!);
  return out;
}

function decodeValue(value: unknown, kind: CachedValueKind): unknown {
  switch (kind) {
    case 'date':
      return new Date(value === null ? Number.NaN : (value as string));
    case 'bigint':
      return BigInt(value as string);
    case 'number':
      return Number(value);
    case 'undefined':
      return undefined;
    case 'bytes':
      return Uint8Array.from(value as number[]);
    case 'buffer':
      return NodeBuffer ? NodeBuffer.from(value as number[]) : Uint8Array.from(value as number[]);
    case 'nested':
      return decodeContainer(value as CachedContainer);
  }
}
