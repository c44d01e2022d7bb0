/**
 * Realtime envelopes as stream text. The subject (the stored row that decides who may see an event) keeps its types
 * across the trip, so a subscriber's filter on a date or bigint column decides on another instance as it would here.
 *
 * The types travel beside the values, never inside them: `{ v: 2, envelope, typed }`, where `envelope` is plain JSON
 * (a Date as its ISO text, a bigint as its digits) and `typed` lists the path of each Date and bigint. No value a
 * client wrote (a JSON column holding `{ "$svc:bigint": "1" }`, say) can pass for a type on the way back.
 */
import { type RealtimeEvent } from '@svc/core';
import { realtimeEnvelopeOf, realtimeEventOf } from '@svc/core/spi';

type Path = readonly (string | number)[];
type Typed = readonly [Path, 'date' | 'bigint'];

/** The event and its subject as JSON, with the paths of their Dates and bigints. */
export function encodeEvent(event: RealtimeEvent): string {
  const typed: Typed[] = [];
  const envelope = plain(realtimeEnvelopeOf(event), [], typed);
  return JSON.stringify({ v: 2, envelope, typed });
}

/** The event `encodeEvent` wrote, its subject attached again; undefined for text that is not one. */
export function decodeEvent(text: string): RealtimeEvent | undefined {
  try {
    const parsed = JSON.parse(text) as { v?: unknown; envelope?: unknown; typed?: unknown };
    const envelope = (parsed?.v === 2 ? revived(parsed.envelope, parsed.typed) : legacy(text)) as {
      event?: unknown;
    } | null;
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.event !== 'object') return undefined;
    return realtimeEventOf(envelope as Parameters<typeof realtimeEventOf>[0]);
  } catch {
    return undefined;
  }
}

/** A JSON-ready copy of `value` (what `JSON.stringify` would write), recording where each Date and bigint was. */
function plain(value: unknown, path: Path, typed: Typed[]): unknown {
  if (value instanceof Date) {
    typed.push([path, 'date']);
    return Number.isNaN(value.getTime()) ? null : value.toISOString();
  }
  if (typeof value === 'bigint') {
    typed.push([path, 'bigint']);
    return value.toString();
  }
  if (typeof value !== 'object' || value === null) return value;
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return json.call(value);
  if (Array.isArray(value)) return value.map((item, index) => plain(item, [...path, index], typed));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined && typeof item !== 'function') out[key] = plain(item, [...path, key], typed);
  }
  return out;
}

/** The envelope with the value at each typed path made a Date or a bigint again; a path that leads nowhere is left. */
function revived(envelope: unknown, typed: unknown): unknown {
  if (!Array.isArray(typed)) return envelope;
  for (const entry of typed as unknown[]) {
    if (!Array.isArray(entry) || !Array.isArray(entry[0]) || entry[0].length === 0) continue;
    const path = entry[0] as unknown[];
    // Own properties only: a path never walks into a prototype.
    let parent: unknown = envelope;
    for (const step of path.slice(0, -1)) parent = ownChild(parent, step);
    const key = path[path.length - 1] as never;
    if (!isContainer(parent) || !Object.hasOwn(parent, key)) continue;
    const raw: unknown = parent[key];
    if (entry[1] === 'date' && (typeof raw === 'string' || raw === null)) {
      parent[key] = new Date(raw ?? Number.NaN) as never;
    } else if (entry[1] === 'bigint' && typeof raw === 'string' && /^-?\d+$/.test(raw)) {
      parent[key] = BigInt(raw) as never;
    }
  }
  return envelope;
}

function ownChild(parent: unknown, step: unknown): unknown {
  if (!isContainer(parent) || (typeof step !== 'string' && typeof step !== 'number')) return undefined;
  return Object.hasOwn(parent, step) ? parent[step] : undefined;
}

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return typeof value === 'object' && value !== null;
}

const LEGACY_DATE = '$svc:date';
const LEGACY_BIGINT = '$svc:bigint';

/**
 * An envelope written before the types moved beside the values (an instance of an older release, during a rolling
 * update): its tags are read as they were written then.
 */
function legacy(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length !== 1) return value;
    if (keys[0] === LEGACY_DATE)
      return new Date(record[LEGACY_DATE] === null ? Number.NaN : String(record[LEGACY_DATE]));
    if (keys[0] === LEGACY_BIGINT && /^-?\d+$/.test(String(record[LEGACY_BIGINT]))) {
      return BigInt(String(record[LEGACY_BIGINT]));
    }
    return value;
  });
}
