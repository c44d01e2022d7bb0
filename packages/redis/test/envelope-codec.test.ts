/**
 * Events as the Redis Stream carries them: the public payload unchanged, and the subject (the stored row that decides
 * who may see the event, never sent to clients) with its Dates and bigints intact, so a filter on such a column
 * decides on another instance as it would on the one that published.
 */
import { realtimeEnvelopeOf, type RealtimeEvent } from '@svc/core';
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
        event,
        subject: {
          ...subject,
          createdAt: { '$svc:date': subject.createdAt.toISOString() },
          big: { '$svc:bigint': subject.big.toString() },
        },
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

  it('carries an event without a subject, and reads anything else as no event', () => {
    expect(realtimeEnvelopeOf(decodeEvent(encodeEvent(EVENT))!).subject).toBeUndefined();
    expect(decodeEvent('not json')).toBeUndefined();
    expect(decodeEvent('{"other":1}')).toBeUndefined();
  });
});
