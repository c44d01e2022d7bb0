/** The example app for its tests: SQLite in memory, seeded, listening on a free local port. */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../src/app.module';

export interface ListeningExample {
  readonly app: INestApplication;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly base: string;
}

/** Boots the example; `prepare` runs before it listens (to mount Swagger UI, say). */
export async function listenExample(prepare?: (app: INestApplication) => void): Promise<ListeningExample> {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ databaseUrl: ':memory:' })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  prepare?.(app);
  await app.listen(0, '127.0.0.1');
  // Idle connections outlive the clients' own keep-alive (undici reuses a socket for 4 s), so a loaded machine never
  // has the server close one the client is about to reuse (ECONNRESET on Node 24's fetch).
  const server = app.getHttpServer() as { keepAliveTimeout: number; headersTimeout: number };
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 31_000;
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}
