/**
 * Realtime envelopes as stream text. The subject (the stored row that decides who may see an event) keeps its types
 * across the trip, so a subscriber's filter on a date or bigint column decides on another instance as it would here.
 */
import { realtimeEnvelopeOf, realtimeEventOf, type RealtimeEvent } from '@svc/core';

const DATE = '$svc:date';
const BIGINT = '$svc:bigint';

/** The event and its subject as JSON, Dates and bigints tagged. */
export function encodeEvent(event: RealtimeEvent): string {
  return JSON.stringify(realtimeEnvelopeOf(event), function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { [DATE]: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
    if (typeof raw === 'bigint') return { [BIGINT]: raw.toString() };
    return value;
  });
}

/** The event `encodeEvent` wrote, its subject attached again; undefined for text that is not one. */
export function decodeEvent(text: string): RealtimeEvent | undefined {
  try {
    const envelope = JSON.parse(text, (_key, value: unknown) => revive(value)) as { event?: unknown };
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.event !== 'object') return undefined;
    return realtimeEventOf(envelope as Parameters<typeof realtimeEventOf>[0]);
  } catch {
    return undefined;
  }
}

function revive(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 1) return value;
  if (keys[0] === DATE) return new Date(record[DATE] === null ? Number.NaN : String(record[DATE]));
  if (keys[0] === BIGINT) return BigInt(String(record[BIGINT]));
  return value;
}
