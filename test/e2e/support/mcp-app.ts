/**
 * A Nest app over a fresh test database with the MCP switch on, listening on a free port, for the MCP suites; on
 * Fastify when `SVC_TEST_PLATFORM=fastify`.
 */
import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type Type,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule, type SvcMcpSwitch, type SvcModuleOptions } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import type { AddressInfo } from 'node:net';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { TEST_PLATFORM } from '../../support/create-test-app';
import { testDataSourceOptions, type TestDatabase } from '../../support/test-databases';

/** The caller a guard puts on the request, from the `x-user` (`<name>:<tenant>:<role>`) header. */
export interface TestCaller {
  readonly name: string;
  readonly tenant: string;
  readonly role: string;
}

/** Stands in for authentication: sets `request.user` from `x-user`; refuses a request that sends `x-refuse`. */
@Injectable()
export class TestCallerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; user?: TestCaller }>();
    if (request.headers['x-refuse'] !== undefined) throw new ForbiddenException('The test guard refuses this caller.');
    const header = request.headers['x-user'];
    if (typeof header === 'string') {
      const [name = '', tenant = '', role = ''] = header.split(':');
      request.user = { name, tenant, role };
    }
    return true;
  }
}

export interface McpApp {
  readonly app: INestApplication;
  readonly dataSource: DataSource;
  /** `http://127.0.0.1:<port>/mcp` (or the switch's path). */
  readonly url: string;
  close(): Promise<void>;
}

export interface McpAppOptions {
  readonly db: TestDatabase;
  readonly suite: string;
  readonly entities: Function[];
  readonly controllers: Type[];
  readonly svc?: SvcModuleOptions;
  readonly mcp?: true | SvcMcpSwitch;
  /** Options laid over the test database's (an application_name, a logger). */
  readonly dataSource?: Partial<DataSourceOptions>;
}

export async function startMcpApp(options: McpAppOptions): Promise<McpApp> {
  const dataSourceOptions = (await testDataSourceOptions(
    options.db,
    // The Fastify runs get a namespace of their own, so both platforms' runs can share a database server at once.
    TEST_PLATFORM === 'fastify' ? `${options.suite}_fastify` : options.suite,
    options.entities,
  )) as DataSourceOptions;
  const merged = { ...dataSourceOptions, ...options.dataSource } as DataSourceOptions;
  const moduleRef = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot(merged),
      SvcModule.forRoot({ infrastructure: typeorm(), ...options.svc, mcp: options.mcp ?? true }),
    ],
    controllers: options.controllers,
    providers: [{ provide: APP_GUARD, useClass: TestCallerGuard }],
  }).compile();
  const app =
    TEST_PLATFORM === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  // Idle keep-alive sockets outlive the client's own idle timeout (undici's, 4 s), so a loaded machine never has the
  // server close a socket the client is just reusing (read ECONNRESET).
  const server = app.getHttpServer() as { keepAliveTimeout: number; headersTimeout: number };
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 31_000;
  const { port } = app.getHttpServer().address() as AddressInfo;
  const path = options.mcp === undefined || options.mcp === true ? 'mcp' : (options.mcp.path ?? 'mcp');
  return {
    app,
    dataSource: app.get(DataSource),
    url: `http://127.0.0.1:${port}/${path.replace(/^\//, '')}`,
    close: () => app.close(),
  };
}
