/**
 * The platform gate: the framework and ORM packages Svc runs against, checked at bootstrap against the ranges Svc is
 * tested with, failing closed. Every unsupported or unreadable package is named in one error, with the command that
 * fixes them all. The bindings read the installed versions (`readInstalledVersion`, with their own `require` handed in,
 * so core stays free of Node imports) and declare the ranges.
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

/**
 * The `require` of the binding's own module, as Node hands it to CommonJS code: `require.resolve.paths` lists the
 * `node_modules` folders Node searches from there, and requiring a manifest by its absolute path reads it whatever
 * the package's `exports` say. Core takes it as an argument, so it imports nothing of Node itself.
 */
export interface PackageRequire {
  (id: string): unknown;
  readonly resolve: { (id: string): string; paths(id: string): string[] | null };
}

/**
 * The installed version of `name`, read from its own `package.json`: in the nearest of the folders Node searches
 * that holds `name` (a manifest there that names another package, no version or no valid JSON makes the version
 * unreadable: an alias or a broken install is not taken for the package), else upwards from the file `name`
 * resolves to (a layout without `node_modules` folders). A package Node cannot find is unreadable too, with the reason.
 */
export function readInstalledVersion(name: string, load: PackageRequire): InstalledVersion {
  for (const folder of load.resolve.paths(name) ?? []) {
    const manifest = manifestAt(load, `${folder}/${name}/package.json`);
    if (manifest === undefined) continue;
    if (manifest instanceof Error) return { unreadable: `${folder}/${name}/package.json is not valid JSON` };
    if (manifest.name !== name)
      return { unreadable: `${folder}/${name} holds ${String(manifest.name ?? 'a package with no name')}` };
    return versionOf(manifest);
  }
  let entry: string;
  try {
    entry = load.resolve(name);
  } catch {
    return { unreadable: 'Node finds no installed copy of it from Svc' };
  }
  const parts = entry.split(/[\\/]/);
  for (let end = parts.length - 1; end > 0; end--) {
    const manifest = manifestAt(load, `${parts.slice(0, end).join('/')}/package.json`);
    if (manifest !== undefined && !(manifest instanceof Error) && manifest.name === name) return versionOf(manifest);
  }
  return { unreadable: `no package.json naming ${name} was found above ${entry}` };
}

interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
}

/** The manifest at `path`; undefined when there is none, the error when it does not parse. */
function manifestAt(load: PackageRequire, path: string): Manifest | Error | undefined {
  try {
    const manifest = load(path);
    return typeof manifest === 'object' && manifest !== null ? (manifest as Manifest) : new Error('not an object');
  } catch (error) {
    return (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' ? undefined : (error as Error);
  }
}

function versionOf(manifest: Manifest): InstalledVersion {
  return typeof manifest.version === 'string' && manifest.version !== ''
    ? { version: manifest.version }
    : { unreadable: 'its package.json names no version' };
}

/**
 * True when `version` lies in `range`: caret ranges (`^11`, `^0.3.27`, `^12.5.1`) joined by `||`. A prerelease
 * (`12.0.0-rc.1`, `0.3.28-dev.abc`) is outside every such range, as for npm; build metadata (`+sha`) is ignored. Core
 * carries this small matcher rather than `semver` because it has no runtime dependencies.
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

/** `[major, minor, patch]` of `1`, `1.2` or `1.2.3` (build metadata allowed); undefined for anything else. */
function numbersOf(text: string): number[] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\+[\w.-]*)?$/.exec(text.trim());
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
