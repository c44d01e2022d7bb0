/**
 * The optional peers of the Nest binding (`@svc/graphql`, `@svc/mcp`, `@nestjs/swagger`) are loaded by name at run
 * time, never by a static import, so an app that does not use a surface does not install its package.
 */
import { ConfigurationException } from '@svc/core';

/** The package, or undefined when it is not installed; a package that is installed and fails to load throws. */
export function loadOptionalPeer<T>(name: string): T | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name) as T;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    return undefined;
  }
}

/** The package a switched-on surface needs; its absence stops the app at boot, saying what to install. */
export function requireOptionalPeer<T>(name: string, needed: { readonly path: string; readonly message: string }): T {
  const loaded = loadOptionalPeer<T>(name);
  if (loaded === undefined) throw new ConfigurationException({ path: needed.path, message: needed.message });
  return loaded;
}
