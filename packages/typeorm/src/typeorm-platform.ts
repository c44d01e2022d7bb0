/** The TypeORM lines this adapter supports, and the version installed beside it, for Svc's platform gate. */
import { readInstalledVersion, type PackageRequire, type PlatformPackage } from '@svc/core/spi';

/** The TypeORM versions the adapter is tested with: the peer range of `@svc/typeorm`. */
export const TYPEORM_RANGE = '^0.3.27 || ^1';

/** TypeORM as installed where this package finds it (its `package.json` read directly: `exports` hide it). */
export function typeormPlatform(load: PackageRequire = require): PlatformPackage {
  return { name: 'typeorm', range: TYPEORM_RANGE, installed: readInstalledVersion('typeorm', load) };
}
