/**
 * The Nest packages this binding supports, and the versions installed beside it, for Svc's platform gate. Each
 * version is read from the package's own `package.json`, found as Node finds the package from here, so what a
 * package's `exports` hide does not matter.
 */
import { readInstalledVersion, type PackageRequire, type PlatformPackage } from '@svc/core/spi';

/** The Nest versions the binding is tested with: the peer range of `@svc/nestjs`. */
export const NEST_RANGE = '^11.1.0 || ^12';

/** `@nestjs/common` and `@nestjs/core` as installed where this package finds them. */
export function nestPlatform(load: PackageRequire = require): PlatformPackage[] {
  return ['@nestjs/common', '@nestjs/core'].map((name) => ({
    name,
    range: NEST_RANGE,
    installed: readInstalledVersion(name, load),
  }));
}
