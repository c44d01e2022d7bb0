/** The app under test, on a database of the test file's own, and the tokens its callers send. */
import type { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Test } from '@nestjs/testing';
import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import type { Role } from '../src/caller';

export const JWT_SECRET = 'a-secret-for-tests-only';

/**
 * SQLite in memory; or, when TEST_POSTGRES_URL is set, a PostgreSQL schema of the test file's own, made empty:
 * Jest runs files in parallel, and each must see only its own rows.
 */
async function testDatabase(schema: string): Promise<TypeOrmModuleOptions> {
  const url = process.env['TEST_POSTGRES_URL'];
  if (!url) return { type: 'better-sqlite3', database: ':memory:', synchronize: true };
  const admin = await new DataSource({ type: 'postgres', url }).initialize();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.destroy();
  return { type: 'postgres', url, schema, synchronize: true };
}

/** Boots the app as main.ts does, on a free port (the agent tools' client and EventSource need a URL). */
export async function startApp(schema: string): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ database: await testDatabase(schema), jwtSecret: JWT_SECRET })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}

export interface TokenOptions {
  /** The shop the caller belongs to. */
  readonly tenant?: string;
  /** Seconds until it expires; negative for one that already has. @default 3600 */
  readonly expiresIn?: number;
  /** Another secret than the app's, for a token the app must refuse. */
  readonly secret?: string;
}

/** A token as the app's sign-in would issue it, signed with the secret the app checks. */
export function tokenFor(role: Role, { tenant, expiresIn = 3600, secret = JWT_SECRET }: TokenOptions = {}): string {
  const claims = { sub: `${role}@${tenant ?? 'catalogue'}`, role, ...(tenant ? { tenant } : {}) };
  return new JwtService({ secret }).sign(claims, { algorithm: 'HS256', expiresIn });
}

/** The header a caller sends: `.set(bearer('editor'))`. */
export function bearer(role: Role, options?: TokenOptions): { authorization: string } {
  return { authorization: `Bearer ${tokenFor(role, options)}` };
}

// This repository's CI names its PostgreSQL server SVC_TEST_POSTGRES_URL; the guide's code reads TEST_POSTGRES_URL.
if (process.env['SVC_TEST_POSTGRES_URL']) process.env['TEST_POSTGRES_URL'] ??= process.env['SVC_TEST_POSTGRES_URL'];
