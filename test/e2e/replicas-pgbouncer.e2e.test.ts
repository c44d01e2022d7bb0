/**
 * Svc behind PgBouncer in transaction pooling mode: existing PostgreSQL suites (CRUD, nested writes, batch writes,
 * conditional requests, realtime) run unchanged with their database URL pointing at PgBouncer in front of a primary
 * started for this suite, in a jest of their own (they open their own apps and schemas).
 */
import { spawn } from 'node:child_process';
import {
  pgbouncerBinary,
  postgresBinaries,
  startReplicaServers,
  type ReplicaServers,
} from '../support/replica-servers';

const SUITES = [
  'test/e2e/crud-operations',
  'test/e2e/nested-writes.e2e',
  'test/e2e/batch-writes',
  'test/e2e/conditional-requests',
  'test/e2e/realtime-events',
];

const describeWithBouncer =
  process.env['SVC_TEST_POSTGRES_URL'] && postgresBinaries() && pgbouncerBinary() ? describe : describe.skip;

describeWithBouncer('Svc behind PgBouncer in transaction mode (SVC_TEST_POSTGRES_URL, pgbouncer)', () => {
  let servers: ReplicaServers;

  beforeAll(async () => {
    servers = await startReplicaServers({ pgbouncer: true });
  }, 120_000);

  afterAll(() => servers?.stop());

  it(`passes ${SUITES.length} PostgreSQL suites with their database behind PgBouncer`, async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [require.resolve('jest/bin/jest'), ...SUITES, '--maxWorkers=1', '-t', 'postgres', '--ci'],
        {
          env: {
            ...process.env,
            SVC_TEST_POSTGRES_URL: servers.bouncerUrl,
            SVC_TEST_MYSQL_URL: '',
            SVC_TEST_REDIS_URL: '',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', (exit) => resolve({ code: exit, output: text }));
    });
    const summary = /Tests:\s+(.*)/.exec(output)?.[1] ?? output.slice(-2000);
    expect({ code, summary }).toEqual({ code: 0, summary: expect.stringMatching(/\d+ passed/) });
    expect(summary).not.toMatch(/failed/);
  }, 600_000);
});
