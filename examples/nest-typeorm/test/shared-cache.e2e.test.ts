/**
 * The example's shared cache, as the README's "Several instances" runs it: two instances of the app on one database
 * and one Redis. A tag list one instance cached is answered by the other from the shared entry, and a tag written
 * through either drops it for both. Runs when SVC_TEST_REDIS_URL is set, like the other Redis suites.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { Tag } from '../src/entities/tag.entity';
import { bearer } from './tokens';

const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] || undefined;
const describeWithRedis = REDIS_URL ? describe : describe.skip;

/** The example's own key prefix in Redis (src/redis-scale-out.ts). */
const PREFIX = 'bookstore:';

async function instance(databaseUrl: string): Promise<{ app: INestApplication; base: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ databaseUrl, redisUrl: REDIS_URL })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

async function tagNames(base: string): Promise<string[]> {
  const response = await fetch(`${base}/tags?limit=100`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: { name: string }[] }).items.map((tag) => tag.name);
}

describeWithRedis('the example on two instances over one Redis (SVC_TEST_REDIS_URL)', () => {
  let dir: string;
  let a: { app: INestApplication; base: string };
  let b: { app: INestApplication; base: string };

  beforeAll(async () => {
    // Entries an earlier run left under the example's prefix would answer for this run's fresh database.
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    dir = mkdtempSync(join(tmpdir(), 'svc-example-shared-'));
    const databaseUrl = `sqlite:${join(dir, 'bookstore.db')}`;
    a = await instance(databaseUrl);
    b = await instance(databaseUrl);
  }, 60_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers on B the tag list A cached, and drops it on both when B writes a tag', async () => {
    const cached = await tagNames(a.base);
    expect(cached.length).toBeGreaterThan(0);
    // A row written behind Svc's back: no write of Svc's announces it, so only a cached answer can leave it out.
    await a.app.get(DataSource).getRepository(Tag).save({ name: 'behind-the-back' });
    expect(await tagNames(b.base)).toEqual(cached);
    const created = await fetch(`${b.base}/tags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer('editor') },
      body: JSON.stringify({ name: 'through-b' }),
    });
    expect(created.status).toBe(201);
    const after = await tagNames(a.base);
    expect(after).toEqual(expect.arrayContaining(['behind-the-back', 'through-b']));
  });
});
