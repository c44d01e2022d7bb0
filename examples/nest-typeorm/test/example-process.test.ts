/**
 * `pnpm example` as a user runs it: a process of its own that prints its URL and no route table, serves, and stops
 * with exit status 0 on SIGTERM and on Ctrl-C (SIGINT to the whole process group, pnpm included).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const URL_LINE = /listening on (http:\/\/\S+)/;
/** What Nest logs at `log` level while it boots: the module list and one line per mapped route. */
const NEST_BOOT_LOG = /InstanceLoader|RoutesResolver|RouterExplorer|Mapped \{|NestFactory|NestApplication/;

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `pnpm example` on in-memory SQLite and a free port, in a process group of its own, until it prints its URL. */
async function startExample(env: Record<string, string> = {}): Promise<Started> {
  const child = spawn('pnpm', ['example'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: ':memory:', PORT: '0', VERBOSE: '', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line within 45 s; output so far:\n${output}`)), 45_000);
    const check = () => {
      const match = URL_LINE.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    exit.then(
      ({ code, signal }) => reject(new Error(`exited (${code ?? signal}) before printing its URL:\n${output}`)),
      reject,
    );
  });
  return { child, url, output: () => output, exit };
}

/** SIGKILL to the process group, if any of it is left, and the pipes closed, so jest has nothing to wait for. */
function stopGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // ESRCH: the group has already gone.
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
}

describe('pnpm example, as a process', () => {
  let started: Started | undefined;

  afterEach(() => {
    // Whatever a test left behind (a process that missed its signal, a grandchild of a pnpm that died) goes too.
    if (started) stopGroup(started.child);
    started = undefined;
  });

  it('prints its URL without Nest’s route table, serves it, and exits 0 on SIGTERM', async () => {
    started = await startExample();
    const response = await fetch(`${started.url}/books?limit=1`);
    expect(response.status).toBe(200);
    // One line per surface, each with its address.
    for (const path of ['/', '/books', '/docs', '/graphql', '/mcp', '/books/events', '/health']) {
      expect(started.output()).toContain(`  ${started.url}${path} `);
    }

    started.child.kill('SIGTERM');
    expect(await started.exit).toEqual({ code: 0, signal: null });
    expect(started.output()).not.toMatch(NEST_BOOT_LOG);
    expect(started.output()).not.toMatch(/error|ELIFECYCLE/i);
  }, 60_000);

  it('answers a client mistake as problem details, lets the token it prints write, and prints spans with TRACE=console', async () => {
    started = await startExample({ TRACE: 'console' });
    // The script runs on the packages' sources: Svc's own errors must reach its filter as such (a 404, not a 500).
    const missing = await fetch(`${started.url}/books/999999`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('SVC_NOT_FOUND');
    const token = /An editor's token for 1 h:\n\s+(\S+)/.exec(started.output())?.[1];
    expect(token).toBeDefined();
    const created = await fetch(`${started.url}/tags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'from-the-printed-token' }),
    });
    expect(created.status).toBe(201);
    // The console exporter prints each finished span: the list above, named by entity and operation, from REST.
    await fetch(`${started.url}/books?limit=1`);
    const deadline = Date.now() + 5_000;
    while (!started.output().includes("name: 'Book.findMany'") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started.output()).toContain("name: 'Book.findMany'");
    expect(started.output()).toContain("'svc.surface': 'rest'");
    expect(started.output()).toContain("'svc.outcome': 'SVC_NOT_FOUND'");
    started.child.kill('SIGTERM');
    expect(await started.exit).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('exits 0 without an error report on Ctrl-C (SIGINT to its process group)', async () => {
    started = await startExample();

    process.kill(-started.child.pid!, 'SIGINT');
    expect(await started.exit).toEqual({ code: 0, signal: null });
    expect(started.output()).not.toMatch(/error|ELIFECYCLE|Command failed/i);
  }, 60_000);
});
