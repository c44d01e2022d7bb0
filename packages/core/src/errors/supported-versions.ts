/**
 * The platform gate: the framework and ORM packages Svc runs against, checked at bootstrap against the ranges Svc is
 * tested with, failing closed. Every unsupported or unreadable package is named in one error, with the command that
 * fixes them all. The bindings read the installed versions (`readInstalledVersion`, with Node's lookup handed in, so
 * core stays free of Node imports) and declare the ranges.
 */
import { ConfigurationException } from './configuration-exception';

/** A package Svc runs against, as a binding found it installed. */
export interface PlatformPackage {
  readonly name: string;
  /** The versions Svc supports: caret ranges joined by `||`, for example `^11 || ^12` or `^0.3.27 || ^1`. */
  readonly range: string;
  /** What was found installed: a version, or why none could be read. */
  readonly installed: InstalledVersion;
}

/** The outcome of reading a package's installed version. */
export type InstalledVersion = { readonly version: string } | { readonly unreadable: string };

/** How a binding looks a package up: Node's module lookup, handed in by the binding that runs on Node. */
export interface PackageLookup {
  /** The `node_modules` folders Node searches for `name`, nearest first (`require.resolve.paths(name)`). */
  readonly paths: (name: string) => readonly string[] | null;
  /** The entry file `name` resolves to (`require.resolve(name)`); throws when it does not resolve. */
  readonly resolve: (name: string) => string;
  /** A file's text; throws (or answers undefined) when there is no such file. */
  readonly readFile: (path: string) => string | undefined;
}

/**
 * The installed version of `name`, read from its own `package.json` wherever the package's `exports` lets it be
 * required or not: first in each folder Node would search, then upwards from the file the package resolves to (a
 * layout without `node_modules` folders). A package that is missing, or whose manifest names another package or no
 * version, is unreadable, with the reason.
 */
export function readInstalledVersion(name: string, lookup: PackageLookup): InstalledVersion {
  for (const folder of lookup.paths(name) ?? []) {
    const found = manifestVersion(readIfThere(lookup, `${folder}/${name}/package.json`), name);
    if (found) return found;
  }
  let entry: string;
  try {
    entry = lookup.resolve(name);
  } catch {
    return { unreadable: 'it is not installed' };
  }
  const parts = entry.split(/[\\/]/);
  for (let end = parts.length - 1; end > 0; end--) {
    const found = manifestVersion(readIfThere(lookup, `${parts.slice(0, end).join('/')}/package.json`), name);
    if (found) return found;
  }
  return { unreadable: `no package.json naming ${name} was found above ${entry}` };
}

function readIfThere(lookup: PackageLookup, path: string): string | undefined {
  try {
    return lookup.readFile(path);
  } catch {
    return undefined;
  }
}

/** The version in a manifest's text when the manifest is `name`'s; a manifest naming no version says so. */
function manifestVersion(text: string | undefined, name: string): InstalledVersion | undefined {
  if (text === undefined) return undefined;
  let manifest: { name?: unknown; version?: unknown };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return undefined;
  }
  if (manifest.name !== name) return undefined;
  return typeof manifest.version === 'string' && manifest.version !== ''
    ? { version: manifest.version }
    : { unreadable: 'its package.json names no version' };
}

/**
 * True when `version` lies in `range`: caret ranges (`^11`, `^0.3.27`, `^12.5.1`) joined by `||`. A prerelease or
 * build suffix is ignored, so `12.0.0-rc.1` counts as 12.0.0. Core carries this small matcher rather than `semver`
 * because it has no runtime dependencies.
 */
export function satisfiesRange(version: string, range: string): boolean {
  const installed = numbersOf(version);
  if (!installed) return false;
  return range.split('||').some((alternative) => {
    const floor = numbersOf(alternative.trim().replace(/^\^/, ''));
    return floor !== undefined && withinCaret(installed, floor);
  });
}

/** `^floor`: the same leading non-zero part as `floor`, and not below it. */
function withinCaret(version: readonly number[], floor: readonly number[]): boolean {
  const fixed = floor.findIndex((part) => part !== 0);
  const last = fixed === -1 ? floor.length - 1 : fixed;
  for (let index = 0; index <= last; index++) if (version[index] !== floor[index]) return false;
  for (let index = last + 1; index < 3; index++) {
    if (version[index]! > floor[index]!) return true;
    if (version[index]! < floor[index]!) return false;
  }
  return true;
}

/** `[major, minor, patch]` of `1`, `1.2` or `1.2.3` (with any suffix); undefined for anything else. */
function numbersOf(text: string): number[] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/**
 * Throws one ConfigurationException naming every package of `packages` whose installed version is outside its range
 * or could not be read (each with what was found and the supported range), ending with one install command that
 * brings them all to the newest supported line. A package listed twice is checked once.
 */
export function requireSupportedPlatform(packages: readonly PlatformPackage[]): void {
  const seen = new Set<string>();
  const faults: { readonly line: string; readonly fix: string }[] = [];
  for (const { name, range, installed } of packages) {
    if (seen.has(name)) continue;
    seen.add(name);
    if ('version' in installed && satisfiesRange(installed.version, range)) continue;
    const found =
      'version' in installed
        ? `${installed.version} is installed`
        : `its version cannot be read: ${installed.unreadable}`;
    faults.push({ line: `${name}: ${found}; Svc supports ${range}.`, fix: `${name}@${newestLineOf(range)}` });
  }
  if (faults.length === 0) return;
  const fixes = faults.map((fault) => fault.fix).join(' ');
  throw new ConfigurationException({
    path: 'platform',
    message:
      `Svc does not run on ${faults.length === 1 ? 'this package' : `these ${faults.length} packages`} as installed. ` +
      faults.map((fault) => fault.line).join(' ') +
      ` Install supported versions: npm install ${fixes} (or pnpm add ${fixes}).`,
  });
}

/** The last alternative of a range (`^1` of `^0.3.27 || ^1`): the line an install command moves to. */
function newestLineOf(range: string): string {
  const alternatives = range.split('||').map((alternative) => alternative.trim());
  return alternatives[alternatives.length - 1]!;
}
