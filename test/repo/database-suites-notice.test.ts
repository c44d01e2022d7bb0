/** `pnpm test` without the SVC_TEST_* variables ends by saying which database suites did not run and how to run them. */
import { join } from 'node:path';
import config from '../../jest.config';
import {
  databaseSuitesNotice,
  OPTIONAL_DATABASES,
  REDIS_SUITE,
  redisSuitesNotice,
  selectsDatabaseSuites,
} from '../support/database-suites-notice';
import { readText, REPO_ROOT } from './repo-files';

const POSTGRES = 'SVC_TEST_POSTGRES_URL';
const MYSQL = 'SVC_TEST_MYSQL_URL';

describe('the database suites notice', () => {
  describe('when neither database variable is set', () => {
    it('names PostgreSQL and MariaDB, the variables to set with an example value, and the README', () => {
      expect(databaseSuitesNotice({})).toBe(
        'PostgreSQL and MariaDB suites did not run: set SVC_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test' +
          ' and SVC_TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test (see README.md, "pnpm test").',
      );
    });
  });

  describe('when one is set', () => {
    it('names only the database whose variable is missing', () => {
      const notice = databaseSuitesNotice({ [POSTGRES]: 'postgres://db/test' });
      expect(notice).toMatch(/^MariaDB suites did not run: set SVC_TEST_MYSQL_URL=/);
      expect(notice).not.toContain('PostgreSQL');
    });

    it('counts an empty value as unset', () => {
      expect(databaseSuitesNotice({ [POSTGRES]: '', [MYSQL]: 'mysql://db/test' })).toMatch(/^PostgreSQL suites/);
    });
  });

  describe('when both are set', () => {
    it('says nothing', () => {
      expect(databaseSuitesNotice({ [POSTGRES]: 'postgres://db/test', [MYSQL]: 'mysql://db/test' })).toBeUndefined();
    });
  });

  describe('for the Redis suites', () => {
    it('names SVC_TEST_REDIS_URL with an example value when it is unset or empty, and says nothing when it is set', () => {
      expect(redisSuitesNotice({})).toBe(
        'Redis suites did not run: set SVC_TEST_REDIS_URL=redis://127.0.0.1:6379 (its database 0; /5 at the end for ' +
          'database 5; see README.md, "pnpm test").',
      );
      expect(redisSuitesNotice({ SVC_TEST_REDIS_URL: '' })).toMatch(/^Redis suites did not run/);
      expect(redisSuitesNotice({ SVC_TEST_REDIS_URL: 'redis://db:6379' })).toBeUndefined();
    });

    it('speaks after a run that selects a Redis suite, and not after one that selects none', () => {
      const redis = REDIS_SUITE;
      expect(
        selectsDatabaseSuites({ rootDir: REPO_ROOT, testPathPatterns: { patterns: ['redis-faults'] } }, redis),
      ).toBe(true);
      expect(selectsDatabaseSuites({ rootDir: REPO_ROOT, testPathPatterns: { patterns: ['examples'] } }, redis)).toBe(
        false,
      );
    });
  });

  describe('which runs it speaks after', () => {
    it('speaks after a run with no path pattern', () => {
      expect(selectsDatabaseSuites({ rootDir: REPO_ROOT })).toBe(true);
    });

    it('speaks after a run whose patterns select a database suite', () => {
      expect(selectsDatabaseSuites({ rootDir: REPO_ROOT, testPathPatterns: { patterns: ['test/e2e'] } })).toBe(true);
    });

    it('keeps quiet after a run that selects none, such as the example’s tests', () => {
      expect(selectsDatabaseSuites({ rootDir: REPO_ROOT, testPathPatterns: { patterns: ['examples'] } })).toBe(false);
    });
  });

  it('is jest’s global teardown, so it prints after the summary', () => {
    expect(config.globalTeardown).toBe('<rootDir>/test/support/database-suites-notice.ts');
  });

  it('gives the same example values as the README', () => {
    const readme = readText(join(REPO_ROOT, 'README.md'));
    for (const db of OPTIONAL_DATABASES) expect(readme).toContain(`${db.variable}=${db.example}`);
  });
});
