/**
 * Where a read outside any transaction runs when the DataSource has `replication: { master, slaves }`: on a replica,
 * unless the caller's own write is not replayed there yet, the replica lags past `replicas.maxLagMs`, or it cannot be
 * reached; then on the primary, never as an error. Writes, locked reads and every statement of a transaction never
 * come here: they run on the primary's connection of their session.
 *
 * Positions are PostgreSQL's: the primary's `pg_current_wal_lsn()` read after a write commits, against a replica's
 * `pg_last_wal_replay_lsn()` read on the connection that will serve the read (only when the last position known for
 * that replica is older than what the read needs). Other databases have no position to compare: there a caller's
 * reads stay on the primary for `maxLagMs` after its write.
 */
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { READ_AFTER_HEADER, type ResolvedReplicaOptions, resolveReplicaOptions } from './replica-options';
import { formatWalPosition, parseWalPosition } from './wal-position';

/** A committed write: its WAL position (undefined where the database has none) and when it committed. */
interface Written {
  readonly lsn?: bigint;
  readonly at: number;
}

/** One operation's caller, its reads' needs and what it committed. */
interface CallState {
  readonly key?: string;
  readonly request: object;
  /** The position a client's `X-Svc-Read-After` token names. */
  readonly token?: bigint;
  wrote?: Written;
  /** A read of the call ran on a replica behind a write this instance committed. */
  stale: boolean;
}

/** How long a replica that failed or lagged is skipped before a read tries it again. */
const RETRY_MS = 1000;
/** At most one report per reason in this long. */
const REPORT_MS = 10_000;
/** Callers remembered with their last write (the oldest forgotten first). */
const CALLERS = 10_000;
/** Recent commits kept to tell how long ago the oldest write a replica has not replayed committed. */
const RECENT = 256;
/** How often a realtime delivery that waits for a replica asks it how far it has replayed. */
const POLL_MS = 20;

/**
 * The running operation's caller, carried through every statement it awaits (Node's AsyncLocalStorage, taken as a
 * global: the package imports nothing of Node by name).
 */
const { AsyncLocalStorage } = process.getBuiltinModule('node:async_hooks');
const calls = new AsyncLocalStorage<CallState>();
const routers = new WeakMap<DataSource, ReplicaRouter>();

/** The DataSource's router, made on first use (with `options` then, or the defaults). */
export function replicaRouterOf(dataSource: DataSource, options?: ResolvedReplicaOptions): ReplicaRouter {
  let router = routers.get(dataSource);
  if (!router) routers.set(dataSource, (router = new ReplicaRouter(dataSource, options ?? resolveReplicaOptions({}))));
  return router;
}

export class ReplicaRouter {
  /** The DataSource reads from replicas: it lists some, and reads default to them (`replication.defaultMode`). */
  readonly replicated: boolean;
  private readonly positioned: boolean;
  private readonly byCaller = new Map<string, Written>();
  private readonly byRequest = new WeakMap<object, Written>();
  /** The newest positions known per replica (`host:port`); a replica only moves forward. */
  private readonly replayed = new Map<string, bigint>();
  private readonly recent: Written[] = [];
  private skipUntil = 0;
  private readonly reported = new Map<string, number>();
  private waiters: { lsn: bigint; until: number; resolve: () => void }[] = [];
  private polling = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ResolvedReplicaOptions,
  ) {
    const slaves = (dataSource.driver as unknown as { slaves?: unknown }).slaves;
    this.replicated =
      Array.isArray(slaves) && slaves.length > 0 && dataSource.defaultReplicationModeForReads() === 'slave';
    this.positioned = this.replicated && dataSource.options.type === 'postgres';
  }

  /** Runs one operation as its caller's (see ReplicaOptions.caller); a write's answer carries the token. */
  async runAs<T extends { readonly headers: Readonly<Record<string, string>> }>(
    context: Readonly<Record<string, unknown>>,
    run: () => Promise<T>,
  ): Promise<T> {
    if (!this.replicated) return run();
    const request = (context['request'] as object | undefined) ?? context;
    const state: CallState = {
      key: this.options.caller(context),
      request,
      token: parseWalPosition(headerOf(request, READ_AFTER_HEADER.toLowerCase())),
      stale: false,
    };
    const answer = await calls.run(state, run);
    const lsn = state.wrote?.lsn;
    if (lsn === undefined) return answer;
    return { ...answer, headers: { ...answer.headers, [READ_AFTER_HEADER]: formatWalPosition(lsn) } };
  }

  /** Runs a read that takes no lock, outside any transaction, where it can be answered as this caller needs. */
  async read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.replicated) return this.on(this.dataSource.defaultReplicationModeForReads(), work);
    const state = calls.getStore();
    const needed = this.neededBy(state);
    if (needed === 'primary' || Date.now() < this.skipUntil) return this.on('master', work);
    const runner = this.dataSource.createQueryRunner('slave');
    try {
      await runner.connect();
      if (needed !== undefined || this.recent.length > 0) {
        if (!(await this.serves(runner, needed, state))) return await this.onPrimaryAfter(runner, work);
      }
      return await work(runner.manager);
    } catch (error) {
      // Whatever failed on the replica is asked of the primary: a statement that is wrong fails there too.
      if (isConnectionFailure(error)) this.skip('unreachable', error);
      return await this.onPrimaryAfter(runner, work);
    } finally {
      if (!runner.isReleased) await runner.release();
    }
  }

  /** Records a write that committed on the primary: this caller's reads follow it from now on. */
  async committed(): Promise<void> {
    if (!this.replicated) return;
    const at = Date.now();
    let lsn: bigint | undefined;
    if (this.positioned) {
      try {
        const [row] = (await this.dataSource.query('SELECT pg_current_wal_lsn()::text AS lsn')) as { lsn: string }[];
        lsn = parseWalPosition(row?.lsn);
      } catch {
        // Without the position the caller reads the primary for maxLagMs, as on a database that has none.
      }
    }
    const written: Written = { lsn, at };
    if (lsn !== undefined) {
      this.recent.push(written);
      if (this.recent.length > RECENT) this.recent.shift();
    }
    const state = calls.getStore();
    if (!state) return;
    state.wrote = later(state.wrote, written);
    if (state.key !== undefined) {
      this.byCaller.delete(state.key);
      this.byCaller.set(state.key, state.wrote);
      if (this.byCaller.size > CALLERS) this.byCaller.delete(this.byCaller.keys().next().value!);
    }
    this.byRequest.set(state.request, state.wrote);
  }

  /** False when a read of the running call was served by a replica behind a commit of this instance. */
  fresh(): boolean {
    return !calls.getStore()?.stale;
  }

  /**
   * Resolves once every replica has replayed what the running call committed, or maxLagMs after the commit (a replica
   * then behind is skipped by the reads); undefined when the call wrote nothing to wait for.
   */
  readable(): Promise<void> | undefined {
    const lsn = calls.getStore()?.wrote?.lsn;
    if (lsn === undefined || Date.now() < this.skipUntil) return undefined;
    return new Promise((resolve) => {
      this.waiters.push({ lsn, until: Date.now() + this.options.maxLagMs, resolve });
      if (!this.polling) void this.poll();
    });
  }

  /**
   * Whether the connected replica serves the read: it has replayed what the caller needs and lags no more than
   * maxLagMs behind this instance's commits. Marks the call stale when it is behind a commit of another caller.
   */
  private async serves(runner: QueryRunner, needed: Written | undefined, state: CallState | undefined) {
    const name = replicaName((runner as unknown as { databaseConnection?: unknown }).databaseConnection);
    const newest = this.recent.at(-1)?.lsn;
    const target = needed?.lsn !== undefined && (newest === undefined || needed.lsn > newest) ? needed.lsn : newest;
    let replay = this.replayed.get(name);
    if (target !== undefined && (replay === undefined || replay < target)) {
      const [row] = (await runner.query(REPLAY_POSITION)) as { lsn: string | null }[];
      replay = parseWalPosition(row?.lsn) ?? target;
      this.replayed.set(name, replay);
    }
    if (replay === undefined) return true;
    if (needed?.lsn !== undefined && replay < needed.lsn) {
      if (Date.now() - needed.at > this.options.maxLagMs) this.report('lagging');
      return false;
    }
    if (this.lagOf(replay) > this.options.maxLagMs) {
      this.skip('lagging');
      return false;
    }
    if (state && newest !== undefined && replay < newest) state.stale = true;
    return true;
  }

  /**
   * What the call's reads must see: 'primary' for a write whose position is unknown (within maxLagMs of it), the
   * newest of its writes, its caller's and its token otherwise, or undefined for none.
   */
  private neededBy(state: CallState | undefined): Written | 'primary' | undefined {
    if (!state) return undefined;
    let needed: Written | undefined = state.token !== undefined ? { lsn: state.token, at: Date.now() } : undefined;
    for (const written of [
      state.wrote,
      state.key !== undefined ? this.byCaller.get(state.key) : undefined,
      this.byRequest.get(state.request),
    ]) {
      if (!written) continue;
      if (written.lsn === undefined) {
        if (Date.now() - written.at < this.options.maxLagMs) return 'primary';
        continue;
      }
      needed = later(needed, written);
    }
    return needed;
  }

  /** How long ago the oldest commit of this instance that `replay` does not reach committed (0 for none). */
  private lagOf(replay: bigint): number {
    const behind = this.recent.find((written) => written.lsn! > replay);
    return behind ? Date.now() - behind.at : 0;
  }

  private async onPrimaryAfter<T>(runner: QueryRunner, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!runner.isReleased) await runner.release();
    return this.on('master', work);
  }

  private async on<T>(mode: 'master' | 'slave', work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner(mode);
    try {
      return await work(runner.manager);
    } finally {
      await runner.release();
    }
  }

  private skip(reason: 'unreachable' | 'lagging', error?: unknown): void {
    this.skipUntil = Date.now() + RETRY_MS;
    this.replayed.clear();
    this.report(reason, error);
  }

  private report(reason: 'unreachable' | 'lagging', error?: unknown): void {
    const now = Date.now();
    if ((this.reported.get(reason) ?? 0) > now - REPORT_MS) return;
    this.reported.set(reason, now);
    try {
      this.options.onSkip(reason, error);
    } catch {
      // A report that throws changes nothing for the reads.
    }
  }

  /** Asks every replica how far it has replayed until each waiter is reached or out of time. */
  private async poll(): Promise<void> {
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        const lowest = await this.lowestReplay();
        const now = Date.now();
        const waiting: typeof this.waiters = [];
        for (const waiter of this.waiters) {
          if ((lowest !== undefined && lowest >= waiter.lsn) || now >= waiter.until || now < this.skipUntil)
            waiter.resolve();
          else waiting.push(waiter);
        }
        this.waiters = waiting;
        if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      this.polling = false;
    }
  }

  /** The lowest position the reachable replicas have replayed (undefined when none answers). */
  private async lowestReplay(): Promise<bigint | undefined> {
    const pools = (this.dataSource.driver as unknown as { slaves: PgPool[] }).slaves;
    let lowest: bigint | undefined;
    await Promise.all(
      pools.map(async (pool) => {
        try {
          const { rows } = await pool.query(REPLAY_POSITION);
          const replay = parseWalPosition(rows[0]?.lsn);
          if (replay === undefined) return;
          this.replayed.set(replicaName(pool.options), replay);
          if (lowest === undefined || replay < lowest) lowest = replay;
        } catch {
          // A replica that does not answer serves no reads until it does (see read): nothing to wait for there.
        }
      }),
    );
    return lowest;
  }
}

/** The replay position; a server that is no replica (a slave entry naming the primary) answers its own position. */
const REPLAY_POSITION = 'SELECT COALESCE(pg_last_wal_replay_lsn(), pg_current_wal_lsn())::text AS lsn';

interface PgPool {
  readonly options: unknown;
  query(sql: string): Promise<{ rows: { lsn: string | null }[] }>;
}

/** `host:port` of a pg Client or a pool's options (from its connection string when it has no host). */
function replicaName(of: unknown): string {
  const { host, port, connectionString } = (of ?? {}) as { host?: unknown; port?: unknown; connectionString?: unknown };
  if (host !== undefined) return `${String(host)}:${String(port ?? 5432)}`;
  if (typeof connectionString === 'string') {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}`;
  }
  return '';
}

/** The later of two writes: by position where both have one, else the newer. */
function later(a: Written | undefined, b: Written): Written {
  if (a?.lsn === undefined || b.lsn === undefined) return b;
  return b.lsn > a.lsn ? b : a;
}

function headerOf(request: object, name: string): unknown {
  const headers = (request as { headers?: Record<string, unknown> }).headers;
  const value = typeof headers === 'object' && headers !== null ? headers[name] : undefined;
  return Array.isArray(value) ? value[0] : value;
}

/** A failure of the connection rather than of the statement: refused, reset, terminated, or a server going down. */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^(08|57P)/.test(code)) return true;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return false;
  return true;
}
