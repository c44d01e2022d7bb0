import { availableParallelism } from 'node:os';
import * as vm from 'node:vm';
import type { Config } from 'jest';

/**
 * Packages the app needs that publish ECMAScript modules only. Jest requires such a module itself on Node 24.9+ under
 * --experimental-vm-modules (as the newest line runs); elsewhere it cannot, and they are transformed to CommonJS.
 */
const jestRequiresEsm =
  typeof (vm as { SourceTextModule?: { prototype: { hasAsyncGraph?: unknown } } }).SourceTextModule?.prototype
    .hasAsyncGraph === 'function';
const ESM_ONLY = jestRequiresEsm ? [] : ['@nestjs/jwt', '@nestjs/terminus'];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `node_modules/@nestjs/jwt/`, and pnpm's store folder of it, `node_modules/.pnpm/@nestjs+jwt@<version>...`. */
const installed = ESM_ONLY.map(escaped).join('|');
const stored = ESM_ONLY.map((name) => escaped(name.replace('/', '+'))).join('|');
const esmOnlyTransform: Config['transform'] =
  ESM_ONLY.length === 0
    ? {}
    : { [`/node_modules/(${installed})/.+\\.js$`]: '<rootDir>/test/support/esm-package-transform.mjs' };
/** Jest's default (nothing under node_modules is transformed), but for those packages. */
const transformIgnorePatterns =
  ESM_ONLY.length === 0 ? ['/node_modules/'] : [`/node_modules/(?!\\.pnpm/(${stored})@|(${installed})/)`];

/** One jest project for the whole workspace; `@svc/*` resolves to each package's sources. */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  // The RealWorld suite (examples/realworld) runs once in CI, on the oldest line: the newest line leaves the example out
  // of its workspace (platforms/newest/pnpm-workspace.yaml) and sets SVC_SKIP_REALWORLD=1. The replica suites start
  // PostgreSQL servers and PgBouncer of their own, whatever the platform line: it sets SVC_SKIP_REPLICAS=1 too.
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(process.env['SVC_SKIP_REALWORLD'] === '1' ? ['/examples/realworld/'] : []),
    ...(process.env['SVC_SKIP_REPLICAS'] === '1' ? ['/test/e2e/replicas'] : []),
  ],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
    ...esmOnlyTransform,
  },
  transformIgnorePatterns,
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
  // The suites wait on databases, child processes and sockets far more than they compute, and each keeps to its own
  // schema, key prefix and ports: two workers keep both cores of a small CI machine busy, where jest's default (one
  // less than the cores) would run every suite in one process, one at a time.
  maxWorkers: Math.max(2, availableParallelism() - 1),
};

export default config;
