/**
 * The SSE transport over an event log that answers resumes asynchronously (a shared log, such as `@svc/redis`'s): the
 * stream opens at once, events the log delivers while the replay is read are held, and the subscriber gets the replay
 * and then the held events it did not already contain, in order, each once; a log that cannot resume gets a reset.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse, IncomingMessage } from 'node:http';
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeSubscription } from '@svc/core/spi';
import { sse, type EventLog, type LoggedEvent, type LoggedEventsSince, type LoggedGap } from '@svc/sse';

/** A log whose `since` answers when the test says so. */
class DeferredLog implements EventLog {
  lastId: string | undefined;
  listener: ((entry: LoggedEvent) => void) | undefined;
  onGap: ((gap: LoggedGap) => void) | undefined;
  answer: ((entries: LoggedEventsSince) => void) | undefined;
  closed = false;

  listen(listener: (entry: LoggedEvent) => void, onGap?: (gap: LoggedGap) => void): void {
    this.listener = listener;
    this.onGap = onGap;
  }
  append(): void {
    throw new Error('not used');
  }
  since(): Promise<LoggedEventsSince> {
    return new Promise((resolve) => (this.answer = resolve));
  }
  deliver(id: string): void {
    this.lastId = id;
    this.listener!({ id, event: eventOf(id) });
  }
  gap(id: string, entities: string[]): void {
    this.lastId = id;
    this.onGap!({ id, entities });
  }
  close(): void {
    this.closed = true;
  }
}

const eventOf = (id: string): RealtimeEvent => ({
  event: 'created',
  entity: 'Doc',
  id,
  channel: `Doc.${id}`,
  occurredAt: '2026-01-01T00:00:00.000Z',
  item: { id },
});

const admitAll: RealtimeSubscription = { entity: 'Doc', events: ['created'], admit: async (event) => event };

/** A response that records what is written to it. */
function fakeResponse(): ServerResponse & { text(): string } {
  const emitter = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const chunks: string[] = [];
  Object.assign(emitter, {
    writableLength: 0,
    writableEnded: false,
    writeHead: () => emitter,
    write: (chunk: string) => chunks.push(chunk) > 0,
    end: () => (emitter['writableEnded'] = true),
    text: () => chunks.join(''),
  });
  return emitter as unknown as ServerResponse & { text(): string };
}

const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the SSE transport over an asynchronous event log', () => {
  it('replays, then sends the events held meanwhile that the replay did not contain, each once', async () => {
    const log = new DeferredLog();
    const transport = sse({ log });
    log.deliver('1-0');
    const response = fakeResponse();
    transport.stream({ subscription: admitAll, request: {} as IncomingMessage, response, lastEventId: '1-0' });
    // Delivered while the replay is being read: 2-0 will be in the replay too, 4-0 is after it.
    log.deliver('2-0');
    log.deliver('4-0');
    log.answer!([
      { id: '2-0', event: eventOf('2-0') },
      { id: '3-0', event: eventOf('3-0') },
    ]);
    await settle();
    log.deliver('5-0');
    await settle();
    await settle();
    expect(ids(response.text())).toEqual(['2-0', '3-0', '4-0', '5-0']);
    transport.close();
    await settle();
    expect(log.closed).toBe(true);
  });

  it('sends a reset positioned where the stream was when the log cannot resume from the id', async () => {
    const log = new DeferredLog();
    const transport = sse({ log });
    log.deliver('7-0');
    const response = fakeResponse();
    transport.stream({ subscription: admitAll, request: {} as IncomingMessage, response, lastEventId: 'gone' });
    log.deliver('8-0');
    log.answer!(undefined);
    await settle();
    await settle();
    expect(response.text()).toMatch(/id: 7-0\nevent: reset\n/);
    expect(ids(response.text())).toEqual(['7-0', '8-0']);
    transport.close();
  });

  it('tells the subscribers of a gap’s entities to read again, in stream order, held while a replay is read', async () => {
    const log = new DeferredLog();
    const transport = sse({ log });
    log.deliver('1-0');
    const live = fakeResponse();
    transport.stream({ subscription: admitAll, request: {} as IncomingMessage, response: live });
    const resuming = fakeResponse();
    transport.stream({
      subscription: admitAll,
      request: {} as IncomingMessage,
      response: resuming,
      lastEventId: '1-0',
    });
    log.deliver('2-0');
    log.gap('3-0', ['Doc']);
    log.gap('4-0', ['Other']);
    log.deliver('5-0');
    await settle();
    await settle();
    // The open stream: the event, the reset at the gap's place, the event after it; another entity's gap is not news.
    expect(ids(live.text())).toEqual(['2-0', '3-0', '5-0']);
    expect(live.text()).toMatch(/id: 3-0\nevent: reset\ndata: \{"reason":"Events were published on another instance/);
    // The resuming stream held them while its replay was read: the replay, then the same order.
    log.answer!([{ id: '2-0', event: eventOf('2-0') }]);
    await settle();
    await settle();
    expect(ids(resuming.text())).toEqual(['2-0', '3-0', '5-0']);
    transport.close();
  });
});
