/**
 * Events as the Redis Stream carries them: the public payload unchanged, and the subject (the stored row that decides
 * who may see the event, never sent to clients) with its Dates and bigints intact, so a filter on such a column
 * decides on another instance as it would on the one that published.
 */
import { type RealtimeEvent } from '@svc/core';
import { realtimeEnvelopeOf } from '@svc/core/spi';
import { decodeEvent, encodeEvent } from '../src/envelope-codec';

const EVENT: RealtimeEvent = {
  event: 'patched',
  entity: 'Note',
  id: 7,
  channel: 'Note.7',
  occurredAt: '2026-01-02T03:04:05.000Z',
  item: { id: 7, title: 'Hello' },
  changed: ['title'],
};

describe('the stream encoding of an event', () => {
  it('keeps the payload and the subject, with Dates and bigints revived', () => {
    const event = { ...EVENT };
    const subject = {
      id: 7,
      tenant: 'acme',
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      big: 12345678901234567890n,
    };
    // A row attached the way core attaches it, through the envelope round trip the other way.
    const attached = decodeEvent(
      JSON.stringify({
        v: 2,
        envelope: {
          event,
          subject: { ...subject, createdAt: subject.createdAt.toISOString(), big: subject.big.toString() },
        },
        typed: [
          [['subject', 'createdAt'], 'date'],
          [['subject', 'big'], 'bigint'],
        ],
      }),
    )!;
    const decoded = decodeEvent(encodeEvent(attached))!;
    expect(decoded).toEqual(EVENT);
    const carried = realtimeEnvelopeOf(decoded).subject!;
    expect(carried['createdAt']).toEqual(subject.createdAt);
    expect(carried['createdAt']).toBeInstanceOf(Date);
    expect(carried['big']).toBe(subject.big);
    expect(carried['tenant']).toBe('acme');
  });

  it('gives back a value a client wrote as it was written, even one shaped like a type tag', () => {
    const tagShaped = { '$svc:bigint': '1' };
    const dated = { '$svc:date': '2026-01-01T00:00:00.000Z' };
    const event: RealtimeEvent = { ...EVENT, item: { id: 7, meta: tagShaped, list: [dated, { a: 1n.toString() }] } };
    const attached = decodeEvent(
      encodeEvent(
        decodeEvent(
          JSON.stringify({
            v: 2,
            envelope: { event, subject: { id: 7, meta: tagShaped, at: '2026-01-01T00:00:00.000Z' } },
            typed: [[['subject', 'at'], 'date']],
          }),
        )!,
      ),
    )!;
    expect(attached.item).toEqual({ id: 7, meta: tagShaped, list: [dated, { a: '1' }] });
    const subject = realtimeEnvelopeOf(attached).subject!;
    expect(subject['meta']).toEqual(tagShaped);
    expect(subject['at']).toEqual(new Date('2026-01-01T00:00:00.000Z'));
    // The whole event serializes again, as a subscriber's frame does.
    expect(() => JSON.stringify(attached)).not.toThrow();
  });

  it('walks no typed path into a prototype, and skips one that leads nowhere', () => {
    const text = JSON.stringify({
      v: 2,
      envelope: { event: EVENT },
      typed: [
        [['__proto__', 'polluted'], 'bigint'],
        [['event', 'constructor', 'prototype', 'x'], 'date'],
        [['event', 'missing', 'deeper'], 'date'],
        [['event', 'id'], 'bigint'],
      ],
    });
    const decoded = decodeEvent(text)!;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(decoded).toEqual(EVENT);
  });

  it('reads an envelope an older release wrote (tags inside the values)', () => {
    const legacy = JSON.stringify({ event: EVENT, subject: { at: { '$svc:date': '2026-01-01T00:00:00.000Z' } } });
    const decoded = decodeEvent(legacy)!;
    expect(decoded).toEqual(EVENT);
    expect(realtimeEnvelopeOf(decoded).subject!['at']).toEqual(new Date('2026-01-01T00:00:00.000Z'));
  });

  it('carries an event without a subject, and reads anything else as no event', () => {
    expect(realtimeEnvelopeOf(decodeEvent(encodeEvent(EVENT))!).subject).toBeUndefined();
    expect(decodeEvent('not json')).toBeUndefined();
    expect(decodeEvent('{"other":1}')).toBeUndefined();
  });
});
