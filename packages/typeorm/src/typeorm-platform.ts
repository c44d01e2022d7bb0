/** The TypeORM lines this adapter supports, and the version installed beside it, for Svc's platform gate. */
import { readFileSync } from 'node:fs';
import { readInstalledVersion, type PackageLookup, type PlatformPackage } from '@svc/core';

/** The TypeORM versions the adapter is tested with. */
export const TYPEORM_RANGE = '^0.3.27 || ^1';

/** Node's lookup from this package's folder, where the app's own TypeORM is found. */
const NODE_LOOKUP: PackageLookup = {
  paths: (name) => require.resolve.paths(name),
  resolve: (name) => require.resolve(name),
  readFile: (path) => readFileSync(path, 'utf8'),
};

/** TypeORM as installed (its `package.json` read from the folder, since TypeORM's `exports` hide it). */
export function typeormPlatform(lookup: PackageLookup = NODE_LOOKUP): PlatformPackage {
  return { name: 'typeorm', range: TYPEORM_RANGE, installed: readInstalledVersion('typeorm', lookup) };
}
