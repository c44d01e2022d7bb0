/**
 * Refusing a framework or ORM version Svc is not tested with, at bootstrap and by name, rather than failing later with
 * an error that points elsewhere. The bindings pass the installed version they read.
 */
import { ConfigurationException } from './configuration-exception';

/** Throws when `version` of `name` is outside `supported` (a list of `major` or `major.minor` prefixes). */
export function requireSupportedVersion(args: {
  readonly name: string;
  readonly version: string | undefined;
  readonly supported: readonly string[];
  readonly range: string;
}): void {
  const { name, version, supported, range } = args;
  if (version === undefined) return;
  const ok = supported.some((prefix) => version === prefix || version.startsWith(`${prefix}.`));
  if (ok) return;
  throw new ConfigurationException({
    path: name,
    message: `${version} is installed; this version of Svc supports ${name} ${range}. Install ${name}@"${range}".`,
  });
}
