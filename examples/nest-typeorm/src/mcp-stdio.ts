/**
 * The bookstore's agent tools over stdio, for an MCP host that launches its servers as child processes:
 * `pnpm --silent --filter @svc/example-nest-typeorm mcp:stdio`. Same database as `pnpm example` (`DATABASE_URL`), no HTTP server.
 * Stdio carries no identity, so the host says whom the tools act for: `BOOKSTORE_ROLE=editor` (or `admin`) may write,
 * anything else reads only. stdout carries the protocol; Nest's log is off and errors go to stderr.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { SvcRegistry } from '@svc/nestjs';
import { serveMcpStdio } from '@svc/mcp';
import { AppModule } from './app.module';
import { ROLES, type Role } from './access/caller';

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(), { logger: false });
  const role = process.env['BOOKSTORE_ROLE'];
  const user =
    role && (ROLES as readonly string[]).includes(role) ? { id: 'mcp-stdio', role: role as Role } : undefined;
  const server = serveMcpStdio({
    svc: app.get(SvcRegistry).instance,
    name: 'bookstore',
    exclude: ['Review'],
    context: user ? { user } : {},
    onError: (error) => console.error(error),
  });
  // The host closes stdin to stop the server; the database connection closes with it.
  process.stdin.once('end', () => {
    void server.close().then(() => app.close());
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
