/**
 * A PostgreSQL primary and a streaming replica (and, when asked, PgBouncer in transaction mode before the primary),
 * started from the machine's PostgreSQL binaries in a temporary directory on free ports, and stopped with nothing left
 * running. As root (initdb refuses it) the servers run as the `postgres` user through `runuser`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';

const run = promisify(execFile);

export interface ReplicaServers {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` of each server. */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** PgBouncer before the primary, in transaction pooling mode (only with `pgbouncer: true`). */
  readonly bouncerUrl?: string;
  readonly primaryPort: number;
  readonly replicaPort: number;
  /** Sets the replica's `recovery_min_apply_delay` (a reload; commits replayed from then on wait that long). */
  setApplyDelay(ms: number): Promise<void>;
  /** The SELECT statements run on a server whose text contains `like` (pg_stat_statements), summed. */
  selectsOn(server: 'primary' | 'replica', like: string): Promise<number>;
  /** Resolves once the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops every server and removes the directory. */
  stop(): Promise<void>;
}

export interface ReplicaServerOptions {
  /** @default 'test' */
  readonly database?: string;
  /** @default 0 */
  readonly applyDelayMs?: number;
  /** @default false */
  readonly pgbouncer?: boolean;
}

/** The newest `/usr/lib/postgresql/<major>/bin` with initdb, or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/** The pgbouncer executable, when installed. */
export function pgbouncerBinary(): string | undefined {
  return ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));
}

const asRoot = userInfo().uid === 0;

/** Runs a server binary as the user that may run it (`postgres` when this process is root). */
function asServerUser(command: string, args: string[]): Promise<{ stdout: string }> {
  return asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const started = new Set<() => void>();
// A suite that dies before its afterAll still stops its servers.
process.once('exit', () => {
  for (const stop of started) stop();
});

export async function startReplicaServers(options: ReplicaServerOptions = {}): Promise<ReplicaServers> {
  const bin = postgresBinaries();
  if (!bin)
    throw new Error('No PostgreSQL binaries under /usr/lib/postgresql/<major>/bin (apt-get install postgresql).');
  const database = options.database ?? 'test';
  const dir = mkdtempSync(join(tmpdir(), 'svc-replicas-'));
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const [primaryPort, replicaPort, bouncerPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const pgCtl = join(bin, 'pg_ctl');
  const stopSync = (): void => {
    for (const data of [replica, primary]) {
      if (!existsSync(join(data, 'postmaster.pid'))) continue;
      try {
        execFileSync(asRoot ? 'runuser' : pgCtl, [
          ...(asRoot ? ['-u', 'postgres', '--', pgCtl] : []),
          '-D',
          data,
          '-m',
          'immediate',
          'stop',
        ]);
      } catch {
        // Already stopped.
      }
    }
    const pid = join(dir, 'pgbouncer.pid');
    if (existsSync(pid)) {
      try {
        process.kill(Number(execFileSync('cat', [pid]).toString().trim()));
      } catch {
        // Already stopped.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  started.add(stopSync);
  try {
    await asServerUser(join(bin, 'initdb'), ['-D', primary, '-U', 'postgres', '--auth=trust', '-N']);
    appendFileSync(
      join(primary, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'fsync = off',
        'max_connections = 200',
        `shared_preload_libraries = 'pg_stat_statements'`,
        'pg_stat_statements.track = all',
        '',
      ].join('\n'),
    );
    await startServer(pgCtl, primary, dir);
    await run(join(bin, 'psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      `${primaryPort}`,
      '-U',
      'postgres',
      '-c',
      `CREATE DATABASE "${database}"`,
    ]);
    await run(join(bin, 'psql'), [
      '-h', '127.0.0.1', '-p', `${primaryPort}`, '-U', 'postgres', '-d', database,
      '-c', 'CREATE EXTENSION pg_stat_statements',
    ]); // prettier-ignore
    await asServerUser(join(bin, 'pg_basebackup'), [
      '-h', '127.0.0.1', '-p', `${primaryPort}`, '-U', 'postgres', '-D', replica, '-R', '-X', 'stream', '-c', 'fast',
    ]); // prettier-ignore
    appendFileSync(
      join(replica, 'postgresql.auto.conf'),
      `port = ${replicaPort}\nrecovery_min_apply_delay = '${options.applyDelayMs ?? 0}ms'\nhot_standby_feedback = on\n`,
    );
    await startServer(pgCtl, replica, dir);
    if (options.pgbouncer) await startBouncer(dir, primaryPort, bouncerPort);
  } catch (error) {
    stopSync();
    started.delete(stopSync);
    throw error;
  }
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const primaryUrl = url(primaryPort);
  const replicaUrl = url(replicaPort);
  const admin = (target: string) => new DataSource({ type: 'postgres', url: target, logging: false }).initialize();
  const onPrimary = await admin(primaryUrl);
  let onReplica = await admin(replicaUrl);
  let replicaUp = true;
  return {
    primaryUrl,
    replicaUrl,
    ...(options.pgbouncer ? { bouncerUrl: url(bouncerPort) } : {}),
    primaryPort,
    replicaPort,
    async setApplyDelay(ms) {
      await onReplica.query(`ALTER SYSTEM SET recovery_min_apply_delay = '${ms}ms'`);
      await onReplica.query('SELECT pg_reload_conf()');
    },
    async selectsOn(server, like) {
      const source = server === 'primary' ? onPrimary : onReplica;
      const [row] = (await source.query(
        `SELECT COALESCE(SUM(calls), 0)::int AS calls FROM pg_stat_statements
          WHERE query ILIKE 'SELECT%' AND query LIKE $1 AND query NOT LIKE '%pg_stat_statements%'`,
        [`%${like}%`],
      )) as { calls: number }[];
      return Number(row?.calls ?? 0);
    },
    async caughtUp() {
      const [{ lsn }] = (await onPrimary.query('SELECT pg_current_wal_lsn()::text AS lsn')) as { lsn: string }[];
      for (let attempt = 0; attempt < 500; attempt++) {
        const [{ done }] = (await onReplica.query('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn])) as {
          done: boolean;
        }[];
        if (done) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('The replica did not catch up in 10 s.');
    },
    async stopReplica() {
      if (!replicaUp) return;
      replicaUp = false;
      await onReplica.destroy().catch(() => undefined);
      await asServerUser(pgCtl, ['-D', replica, '-m', 'immediate', 'stop']);
    },
    async startReplica() {
      if (replicaUp) return;
      await startServer(pgCtl, replica, dir);
      onReplica = await admin(replicaUrl);
      replicaUp = true;
    },
    async stop() {
      await Promise.all([onPrimary.destroy(), onReplica.isInitialized ? onReplica.destroy() : undefined]).catch(
        () => undefined,
      );
      stopSync();
      started.delete(stopSync);
    },
  };
}

async function startServer(pgCtl: string, data: string, dir: string): Promise<void> {
  await asServerUser(pgCtl, ['-D', data, '-l', join(dir, `${data.split('/').pop()}.log`), '-w', 'start']);
}

async function startBouncer(dir: string, primaryPort: number, port: number): Promise<void> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error('pgbouncer is not installed (apt-get install -y pgbouncer).');
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${primaryPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 40',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot) {
    for (const file of ['pgbouncer.ini', 'userlist.txt'])
      chownSync(join(dir, file), uidOf('postgres'), gidOf('postgres'));
  }
  await asServerUser(binary, ['-d', ini]);
  for (let attempt = 0; attempt < 100 && !existsSync(join(dir, 'pgbouncer.pid')); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
