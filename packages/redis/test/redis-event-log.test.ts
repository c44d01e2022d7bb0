/**
 * The Redis event log on its own, as two instances sharing one stream see it: an event one instance had to keep to
 * itself (its connection was down) is followed, once the connection is back, by a gap entry that the other instance
 * hears as a gap of that entity and that a resume cannot cross. Runs when SVC_TEST_REDIS_URL is set.
 */
import type { RealtimeEvent } from '@svc/core';
import Redis from 'ioredis';
import { redisRealtime, type RedisEventLog, type RedisLoggedEvent, type RedisLoggedGap } from '@svc/redis';
import { clearPrefix } from '../../../test/e2e/support/redis-instances';

const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] || undefined;
const describeWithRedis = REDIS_URL ? describe : describe.skip;

const eventOf = (id: number, entity = 'Note'): RealtimeEvent => ({
  event: 'patched',
  entity,
  id,
  channel: `${entity}.${id}`,
  occurredAt: new Date(Date.now() + id).toISOString(),
  item: { id },
  changed: ['title'],
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithRedis('redisRealtime gaps (SVC_TEST_REDIS_URL)', () => {
  const keyPrefix = `svc-test:event-log:${process.pid}:${Date.now().toString(36)}:`;
  const options = { keyPrefix, commandTimeoutMs: 5000, blockMs: 500, onError: () => {}, onRecover: () => {} };
  let aClient: Redis;
  let a: RedisEventLog;
  let b: RedisEventLog;
  const heard = { a: [] as (RedisLoggedEvent | RedisLoggedGap)[], b: [] as (RedisLoggedEvent | RedisLoggedGap)[] };

  beforeAll(async () => {
    aClient = new Redis(REDIS_URL!, { enableOfflineQueue: false });
    await new Promise((resolve) => aClient.once('ready', resolve));
    a = redisRealtime({ client: aClient }, options);
    b = redisRealtime({ url: REDIS_URL! }, options);
    for (const [name, log] of [
      ['a', a],
      ['b', b],
    ] as const) {
      log.listen(
        (entry) => heard[name].push(entry),
        (gap) => heard[name].push(gap),
      );
    }
    // Both loops listen from the stream's end, once connected: append until an event reaches both.
    const deadline = Date.now() + 10_000;
    while (heard.a.length === 0 || heard.b.length === 0) {
      if (Date.now() > deadline) throw new Error('the loops did not start listening within 10 s');
      await a.append(eventOf(0));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  beforeEach(async () => {
    heard.a.length = 0;
    heard.b.length = 0;
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    aClient?.disconnect();
    await clearPrefix(REDIS_URL!, keyPrefix);
  });

  it('marks the events one instance kept to itself with a gap the other hears, and a resume cannot cross', async () => {
    await a.append(eventOf(1));
    await until(() => heard.b.length === 1, 'the first event on B');
    const before = heard.b[0]!.id;

    aClient.disconnect();
    await until(() => aClient.status === 'end', "A's connection closed");
    await a.append(eventOf(2));
    await a.append(eventOf(3, 'Tag'));
    // A delivers them to its own subscribers, under local ids; B hears nothing.
    expect(heard.a.slice(-2).map((entry) => entry.id)).toEqual([
      expect.stringMatching(/^local\./),
      expect.stringMatching(/^local\./),
    ]);
    expect(heard.b).toHaveLength(1);

    await aClient.connect();
    await until(() => heard.b.length === 2, 'the gap on B');
    const gap = heard.b[1] as RedisLoggedGap;
    expect([...gap.entities].sort()).toEqual(['Note', 'Tag']);
    expect(gap.id).toMatch(/^\d+-\d+$/);
    // A kept those events itself: it needs no notice of its own gap.
    await a.append(eventOf(4));
    await until(() => heard.b.length === 3, 'the event after the gap on B');
    expect((heard.b[2] as RedisLoggedEvent).event.id).toBe(4);
    expect(heard.a.some((entry) => 'entities' in entry)).toBe(false);

    // From before the gap, a resume would miss A's events: a reset. From the gap on, it is exact.
    expect(await b.since(before)).toBeUndefined();
    expect((await b.since(gap.id))?.map((entry) => entry.event.id)).toEqual([4]);
  });
});
