/** Starts the bookstore: `pnpm example` at the repository root. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule.forRoot());
  app.enableShutdownHooks();
  const port = Number(process.env['PORT'] ?? 3000);
  await app.listen(port);
  console.log(`Svc bookstore listening on http://localhost:${port}/books`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
