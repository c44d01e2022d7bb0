/**
 * Starts the tenancy app: `pnpm tenancy` in examples/nest-typeorm, on PORT (default 3001), with its data in
 * tenancy.db. On a first start it seeds two tenants, `acme` and `globex`. Prints its surfaces and how to get a token
 * for a tenant; Ctrl-C or SIGTERM closes it.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { TenancyAppModule } from './tenancy-app.module';
import { TenancySeeder } from './tenancy-seeder';

async function main(): Promise<void> {
  const verbose = process.env['VERBOSE'] === '1';
  const app = await NestFactory.create(TenancyAppModule.forRoot({ redisUrl: process.env['REDIS_URL'] }), {
    logger: verbose ? undefined : ['warn', 'error'],
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env['PORT'] ?? 3001));
  const origin = `http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`;
  const seeded = app.get(TenancySeeder).seeded;
  if (seeded) console.log(seeded);
  if (!process.env['JWT_SECRET']) {
    // Anyone who reads the example's source can sign a token for any tenant with this secret.
    console.log('No JWT_SECRET: tokens use the development secret, which is public. Set JWT_SECRET before deploying.');
  }
  console.log(
    [
      `Svc tenancy example listening on ${origin} (Ctrl-C to stop)`,
      `  ${origin}/projects      REST (and /tasks)`,
      `  ${origin}/graphql       GraphQL over HTTP`,
      `  ${origin}/mcp           MCP agent tools (Streamable HTTP)`,
      `  ${origin}/tasks/events  realtime events of the caller's tenant (?access_token=<token>)`,
      'Every route needs a token that names a tenant. In examples/nest-typeorm:',
      '  export TOKEN=$(pnpm -s token editor acme)     # or reader, or the tenant globex',
      `  curl ${origin}/projects -H "authorization: Bearer $TOKEN"`,
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
