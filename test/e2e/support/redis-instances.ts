/**
 * What the Redis scale-out suites need around their child app instances: one database for all of them (PostgreSQL
 * when SVC_TEST_POSTGRES_URL is set, else a SQLite file), instances started as child processes, SSE subscribers, and
 * a Redis server of the suite's own that it can stop and start again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealtimeEvent } from '@svc/core';
import { EventSource } from 'eventsource';
import Redis from 'ioredis';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { testDataSourceOptions } from '../../support/test-databases';
import { REDIS_ENTITIES } from './redis-fixtures';

const ROOT = join(__dirname, '..', '..', '..');
const INSTANCE = join(__dirname, 'redis-instance.ts');

/** The Redis every suite shares, or undefined: the suites then do not run, and say so. */
export const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] || undefined;

/** A key prefix no other run uses, so parallel runs on one Redis never see each other's keys or events. */
export function uniquePrefix(suite: string): string {
  return `svc-test:${suite}:${process.pid}:${Date.now().toString(36)}:`;
}

/** Deletes every key under `prefix` (the run's own), so runs leave nothing behind in a shared Redis. */
export async function clearPrefix(url: string, prefix: string): Promise<void> {
  const admin = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    admin.disconnect();
  }
}

/** The shared database: its schema made, and the options the instances open it with. */
export interface SharedDatabase {
  readonly name: 'postgres' | 'sqlite';
  readonly options: Record<string, unknown>;
  /** A connection of the suite's own, to change rows behind the instances' backs. */
  readonly dataSource: DataSource;
  close(): Promise<void>;
}

export async function openSharedDatabase(suite: string): Promise<SharedDatabase> {
  const postgres = Boolean(process.env['SVC_TEST_POSTGRES_URL']);
  const made = (await testDataSourceOptions(
    { name: postgres ? 'postgres' : 'sqlite' },
    suite,
    REDIS_ENTITIES,
  )) as unknown as Record<string, unknown>;
  let dir: string | undefined;
  if (!postgres) {
    dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
    made['database'] = join(dir, 'shared.db');
  }
  const dataSource = await new DataSource(made as unknown as DataSourceOptions).initialize();
  const { entities: _entities, synchronize: _synchronize, ...options } = made;
  return {
    name: postgres ? 'postgres' : 'sqlite',
    options,
    dataSource,
    close: async () => {
      await dataSource.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One app instance in its own process. */
export interface Instance {
  readonly base: string;
  /** Every line it wrote to stderr (its Redis outage and recovery reports among them). */
  readonly stderr: string[];
  /** The `redis-error` lines about one part (`cache`, `realtime`). */
  errors(part: string): string[];
  stop(): Promise<void>;
}

/** Starts an instance over `database` and the Redis at `url`; resolves once it listens. */
export function startInstance(database: SharedDatabase, url: string, prefix: string): Promise<Instance> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', INSTANCE],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SVC_REDIS_TEST_DATASOURCE: JSON.stringify(database.options),
        SVC_REDIS_TEST_URL: url,
        SVC_REDIS_TEST_PREFIX: prefix,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderr: string[] = [];
  lines(child.stderr!, (line) => stderr.push(line));
  return new Promise<Instance>((resolve, reject) => {
    const failed = (code: number | null) =>
      reject(new Error(`the instance exited (${String(code)}) before listening:\n${stderr.join('\n')}`));
    child.once('exit', failed);
    lines(child.stdout!, (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (!match) return;
      child.off('exit', failed);
      resolve({
        base: `http://127.0.0.1:${match[1]}`,
        stderr,
        errors: (part) => stderr.filter((entry) => entry.startsWith(`redis-error: ${part}:`)),
        stop: () => stopChild(child),
      });
    });
  });
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const line of parts) onLine(line);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** An HTTP call as a tenant; the JSON body parsed. */
export async function call(
  base: string,
  method: string,
  path: string,
  tenant: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> & { items?: Record<string, unknown>[] } }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-tenant': tenant, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** One event an SSE subscriber received. */
export interface Received {
  readonly id: string;
  readonly type: string;
  readonly data: RealtimeEvent & { item: Record<string, unknown> | null };
  /** When it arrived (performance.now()). */
  readonly at: number;
}

export interface Subscriber {
  readonly events: Received[];
  close(): void;
}

/** Opens an SSE stream as a tenant (optionally resuming); resolves once it is open. */
export async function subscribe(
  base: string,
  tenant: string,
  options: { path?: string; lastEventId?: string } = {},
): Promise<Subscriber> {
  const events: Received[] = [];
  const source = new EventSource(`${base}${options.path ?? '/notes/events'}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          'x-tenant': tenant,
          ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
        },
      }),
  });
  for (const type of ['created', 'updated', 'patched', 'deleted', 'restored', 'reset']) {
    source.addEventListener(type, (message) =>
      events.push({
        id: message.lastEventId,
        type,
        data: JSON.parse(message.data) as Received['data'],
        at: performance.now(),
      }),
    );
  }
  await new Promise<void>((resolve, reject) => {
    source.onopen = () => resolve();
    source.onerror = (error) => reject(new Error(`the stream did not open: ${String(error.message)}`));
  });
  // After it opened, a dropped stream is a test failure, not a silent reconnect.
  source.onerror = () => source.close();
  return { events, close: () => source.close() };
}

/** Waits until `check` holds, failing after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A Redis server of the suite's own, without persistence, that it can stop and start again on the same port. */
export class OwnRedisServer {
  private child: ChildProcess | undefined;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Started and not stopped since. */
  get running(): boolean {
    return this.child !== undefined;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const probe = new Redis(this.url, { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await eventually(
        () =>
          probe.connect().then(
            () => true,
            () => false,
          ),
        `redis-server on port ${this.port}`,
      );
    } finally {
      probe.disconnect();
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) await stopChild(child);
  }
}
