/**
 * The Nest packages this binding supports, and the versions installed beside it, for Svc's platform gate. Each
 * version is read from the package's own `package.json`, found as Node finds the package, so what a package's
 * `exports` hide does not matter.
 */
import { readFileSync } from 'node:fs';
import { readInstalledVersion, type PackageLookup, type PlatformPackage } from '@svc/core';

/** The Nest lines the binding is tested with. */
export const NEST_RANGE = '^11 || ^12';

/** Node's lookup from this package's folder, where the app's own `@nestjs/*` are found. */
const NODE_LOOKUP: PackageLookup = {
  paths: (name) => require.resolve.paths(name),
  resolve: (name) => require.resolve(name),
  readFile: (path) => readFileSync(path, 'utf8'),
};

/** `@nestjs/common` and `@nestjs/core` as installed. */
export function nestPlatform(lookup: PackageLookup = NODE_LOOKUP): PlatformPackage[] {
  return ['@nestjs/common', '@nestjs/core'].map((name) => ({
    name,
    range: NEST_RANGE,
    installed: readInstalledVersion(name, lookup),
  }));
}
