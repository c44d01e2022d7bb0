/** A configured test service that cannot be reached fails the run: a suite is never skipped silently. */
import { connect } from 'node:net';
import { openTestDataSource, TEST_DATABASES } from '../support/test-databases';

describe('configured test services', () => {
  it('reaches every configured SQL database', async () => {
    for (const db of TEST_DATABASES.filter((candidate) => candidate.name !== 'sqlite')) {
      const dataSource = await openTestDataSource(db, 'services_check', []);
      try {
        expect(await dataSource.query('SELECT 1 AS one')).toEqual([expect.objectContaining({ one: 1 })]);
      } finally {
        await dataSource.destroy();
      }
    }
  });

  it('reaches redis when SVC_TEST_REDIS_URL is set', async () => {
    const redisUrl = process.env['SVC_TEST_REDIS_URL'];
    if (!redisUrl) return;
    const url = new URL(redisUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port || 6379) }, () => socket.write('PING\r\n'));
      socket.setTimeout(3000, () => reject(new Error(`redis at ${redisUrl} did not answer`)));
      socket.once('data', (data) => {
        resolve(data.toString());
        socket.end();
      });
      socket.once('error', reject);
    });
    expect(reply).toBe('+PONG\r\n');
  });
});
