import { eventOf } from '../../src/pipeline/stages/after-commit-stage';
import { RealtimePublisher } from '../../src/realtime/realtime-publisher';
import type { RealtimeEvent, RealtimeTransport } from '../../src/realtime/realtime-event';
import type { ResolvedSettings } from '../../src/config/svc-settings';
import type { WriteOutcome } from '../../src/pipeline/write-outcome';

const ON = { realtime: { events: {} } } as unknown as ResolvedSettings;
const OUTCOME: WriteOutcome = {
  entity: 'Book',
  operation: 'patchOne',
  event: 'patched',
  key: { id: 7 },
  before: { id: 7, pages: 1 },
  after: { id: 7, pages: 2 },
  changed: ['pages'],
};

describe('eventOf', () => {
  it('builds the payload of a committed write: event, entity, id, channel, occurredAt, item, changed', () => {
    expect(eventOf(OUTCOME, ON)).toEqual({
      event: 'patched',
      entity: 'Book',
      id: 7,
      channel: 'Book.7',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      item: { id: 7, pages: 2 },
      changed: ['pages'],
    });
  });

  it('serves no item on deleted, and joins a composite key', () => {
    const event = eventOf({ ...OUTCOME, event: 'deleted', key: { bookId: 1, code: 'a' }, after: null }, ON);
    expect(event).toMatchObject({ id: '1,a', channel: 'Book.1,a', item: null });
  });

  describe('when the operation does not let the event out', () => {
    it('gives none with realtime off, an event set to false, or no event or key', () => {
      expect(eventOf(OUTCOME, { realtime: false } as unknown as ResolvedSettings)).toBeUndefined();
      const silenced = { realtime: { events: { patched: false } } } as unknown as ResolvedSettings;
      expect(eventOf(OUTCOME, silenced)).toBeUndefined();
      expect(eventOf({ ...OUTCOME, event: undefined }, ON)).toBeUndefined();
      expect(eventOf({ ...OUTCOME, key: undefined }, ON)).toBeUndefined();
    });
  });
});

describe('RealtimePublisher', () => {
  const event = eventOf(OUTCOME, ON)!;

  it('hands every event to every transport without waiting on them', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const slow: RealtimeTransport = {
      name: 'slow',
      publish: (e) => new Promise<void>((resolve) => (release = () => (seen.push(`slow ${e.channel}`), resolve()))),
    };
    const fast: RealtimeTransport = { name: 'fast', publish: async (e) => void seen.push(`fast ${e.channel}`) };
    new RealtimePublisher([slow, fast]).publish([event], ON);
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['fast Book.7']);
    release();
    expect(seen).toEqual(['fast Book.7', 'slow Book.7']);
  });

  it('gives a failing transport’s error to realtime.onPublishError, never to the caller', async () => {
    const errors: [unknown, RealtimeTransport, RealtimeEvent][] = [];
    const failing: RealtimeTransport = { name: 'down', publish: () => Promise.reject(new Error('no broker')) };
    const settings = {
      realtime: {
        events: {},
        onPublishError: (...args: [unknown, RealtimeTransport, RealtimeEvent]) => errors.push(args),
      },
    } as unknown as ResolvedSettings;
    expect(() => new RealtimePublisher([failing]).publish([event], settings)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([[new Error('no broker'), failing, event]]);
  });
});
