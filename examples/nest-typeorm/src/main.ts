/**
 * Starts the bookstore: `pnpm example` at the repository root. Prints its address and one line per surface (REST,
 * Swagger UI, GraphQL, MCP, realtime events, the live page, the readiness check) and, on a first start, what it seeded;
 * Nest's own log (the route table and the module list) only with `VERBOSE=1` or `--verbose`. Ctrl-C or SIGTERM
 * closes the app (the HTTP server and the database connection) and exits with status 0.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { serveApiDocs } from './api-docs';
import { AppModule } from './app.module';
import { BookstoreSeeder } from './bookstore-seeder';
import { startTracing } from './tracing';

const VERBOSE = process.env['VERBOSE'] === '1' || process.argv.includes('--verbose');
const QUIET_LOG_LEVELS: LogLevel[] = ['warn', 'error'];

async function main(): Promise<void> {
  // Before the app exists, so every operation it runs is traced (TRACE=console prints the spans).
  const tracing = startTracing();
  const app = await NestFactory.create(AppModule.forRoot(), { logger: VERBOSE ? undefined : QUIET_LOG_LEVELS });
  stopOnSignals(app);
  serveApiDocs(app);
  await app.listen(Number(process.env['PORT'] ?? 3000));
  const { port } = app.getHttpServer().address() as AddressInfo;
  const seeded = app.get(BookstoreSeeder).seeded;
  if (seeded) console.log(seeded);
  if (!process.env['JWT_SECRET']) {
    // Signed with the development secret anyone can read: fine on your machine, never deployed (see the README).
    const token = app.get(JwtService).sign({ sub: 'demo-editor', role: 'editor' });
    console.log(`No JWT_SECRET: tokens use the development secret. An editor's token for 1 h:\n  ${token}`);
  }
  if (tracing) console.log('Tracing: every operation prints its span (TRACE=console).');
  console.log(surfaces(`http://localhost:${port}`));
}

/** One line per surface the app serves, the first with the address the tests and scripts read. */
function surfaces(origin: string): string {
  const lines: [string, string][] = [
    ['/', 'live page: the books as they change'],
    ['/books', 'REST (and /authors, /tags, /reviews)'],
    ['/docs', 'Swagger UI (the OpenAPI document at /docs-json)'],
    ['/graphql', 'GraphQL over HTTP'],
    ['/mcp', 'MCP agent tools (Streamable HTTP)'],
    ['/books/events', 'realtime events (server-sent events)'],
    ['/health', 'readiness: the database and, with REDIS_URL, Redis'],
  ];
  const width = Math.max(...lines.map(([path]) => origin.length + path.length));
  return [
    `Svc bookstore listening on ${origin} (Ctrl-C to stop)`,
    ...lines.map(([path, what]) => `  ${`${origin}${path}`.padEnd(width)}  ${what}`),
  ].join('\n');
}

/**
 * Closes the app on the first SIGINT or SIGTERM and exits 0. Later signals are ignored while it closes: a Ctrl-C
 * reaches both the app and `pnpm`, which passes it on, so the app sees it twice. A close that fails or hangs for
 * 10 s is reported and exits 1.
 */
function stopOnSignals(app: INestApplication): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => fail(new Error(`The app did not close within 10 s of ${signal}.`)), 10_000).unref();
    app.close().then(() => process.exit(0), fail);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function fail(error: unknown): never {
  console.error(error);
  process.exit(1);
}

main().catch(fail);
