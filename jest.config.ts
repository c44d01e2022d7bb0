import type { Config } from 'jest';

/** One jest project for the whole workspace; `@svc/*` resolves to each package's sources. */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
  moduleNameMapper: {
    '^@svc/core$': '<rootDir>/packages/core/src/index.ts',
    '^@svc/core/spi$': '<rootDir>/packages/core/src/spi.ts',
    '^@svc/typeorm$': '<rootDir>/packages/typeorm/src/index.ts',
    '^@svc/nestjs$': '<rootDir>/packages/nestjs/src/index.ts',
    '^@svc/sse$': '<rootDir>/packages/sse/src/index.ts',
    '^@svc/graphql$': '<rootDir>/packages/graphql/src/index.ts',
    '^@svc/mcp$': '<rootDir>/packages/mcp/src/index.ts',
    '^@svc/redis$': '<rootDir>/packages/redis/src/index.ts',
  },
  setupFiles: ['reflect-metadata'],
  // After the summary: which database suites did not run (their SVC_TEST_* variable is unset) and how to run them.
  globalTeardown: '<rootDir>/test/support/database-suites-notice.ts',
  testTimeout: 30000,
};

export default config;
