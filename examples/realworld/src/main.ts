/**
 * Starts Conduit: `pnpm realworld` at the repository root, on `PORT` (3000 by default), the API under `/api`.
 * Ctrl-C or SIGTERM closes the app and exits 0.
 */
import 'reflect-metadata';
import { createConduitApp } from './conduit-app';

async function main(): Promise<void> {
  const app = await createConduitApp({ logger: process.env['VERBOSE'] === '1' ? undefined : ['warn', 'error'] });
  await app.listen(Number(process.env['PORT'] ?? 3000));
  const once = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', once);
  process.once('SIGTERM', once);
  if (!process.env['JWT_SECRET']) console.log('No JWT_SECRET: tokens are signed with the development secret.');
  console.log(`Conduit API listening on ${(await app.getUrl()).replace('[::1]', 'localhost')}/api (Ctrl-C to stop)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
