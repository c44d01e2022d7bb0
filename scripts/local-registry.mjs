// A real npm registry on 127.0.0.1 (Verdaccio, from npm) holding this repository's @svc/* packages, published as a
// release publishes them: `pnpm publish` of each package, which packs its dist and rewrites `workspace:^` ranges.
// Only the @svc scope is served from it; everything else an app installs comes from its usual registry.
//
//   node scripts/local-registry.mjs [--port 4873]     build, start, publish, and serve until Ctrl-C
//
// Then, in an app: echo '@svc:registry=http://127.0.0.1:4873/' >> .npmrc, and install as the README says.
// .ci/consumer-check.mjs uses startLocalRegistry() the same way. Verdaccio is installed once into
// ~/.cache/svc-verdaccio (SVC_VERDACCIO_CACHE); its storage is a fresh temporary folder each time.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VERDACCIO_VERSION = '6';

/** Runs a command, its output shown, and fails with the command's name when it fails. */
export function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: 'inherit', ...options });
}

/** Verdaccio's launcher, installed from npm into the cache folder the first time. */
function verdaccioBin() {
  const cache = process.env.SVC_VERDACCIO_CACHE ?? join(homedir(), '.cache', 'svc-verdaccio');
  const bin = join(cache, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  // One of Verdaccio's dependencies asks for node-fetch by the `cjs` dist-tag, which not every registry mirror
  // carries; 2.x is what that tag names.
  writeFileSync(
    join(cache, 'package.json'),
    JSON.stringify({ name: 'svc-verdaccio', private: true, overrides: { 'node-fetch@cjs': '^2.7.0' } }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', `verdaccio@${VERDACCIO_VERSION}`], { cwd: cache });
  return bin;
}

/** The @svc packages of the workspace, by folder. */
export function workspacePackages() {
  return readdirSync(join(REPO_ROOT, 'packages')).filter((name) =>
    existsSync(join(REPO_ROOT, 'packages', name, 'package.json')),
  );
}

async function waitForRegistry(url, server, deadline) {
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Verdaccio exited with ${server.exitCode} before it answered`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Verdaccio did not answer at ${url} in time`);
}

/**
 * Starts Verdaccio on 127.0.0.1:`port` with fresh storage, adds a publishing user, publishes every @svc package
 * (built first), and answers `{ url, stop }`.
 */
export async function startLocalRegistry({ port = 4873, build = true } = {}) {
  const url = `http://127.0.0.1:${port}/`;
  // A registry left running on the port (an earlier run killed hard) would answer in this one's place.
  const earlier = await fetch(`${url}-/ping`).then(
    () => true,
    () => false,
  );
  if (earlier) throw new Error(`something already listens on ${url}: stop it (an earlier registry?) and run again`);
  const home = mkdtempSync(join(tmpdir(), 'svc-registry-'));
  writeFileSync(
    join(home, 'config.yaml'),
    [
      `storage: ${join(home, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(home, 'htpasswd')}`,
      'packages:',
      "  '@svc/*':",
      '    access: $all',
      '    publish: $authenticated',
      '    unpublish: $authenticated',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const server = spawn(process.execPath, [verdaccioBin(), '--config', join(home, 'config.yaml'), '--listen', url], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => {
    server.kill();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitForRegistry(url, server, Date.now() + 60_000);
    const login = await fetch(`${url}-/user/org.couchdb.user:svc`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'svc', password: 'svc-local-registry' }),
    });
    const { token } = await login.json();
    if (!token) throw new Error(`Verdaccio gave no token (${login.status})`);
    const npmrc = join(home, 'publish.npmrc');
    writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
    if (build) run('pnpm', ['build'], { cwd: REPO_ROOT });
    for (const name of workspacePackages()) {
      run('pnpm', ['publish', '--registry', url, '--no-git-checks', '--access', 'public'], {
        cwd: join(REPO_ROOT, 'packages', name),
        env: { ...process.env, npm_config_userconfig: npmrc },
      });
    }
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const portAt = process.argv.indexOf('--port');
  const port = portAt > 0 ? Number(process.argv[portAt + 1]) : 4873;
  const { url, stop } = await startLocalRegistry({ port });
  console.log(`\nThe @svc packages are published at ${url}. In an app:\n`);
  console.log(`  echo '@svc:registry=${url}' >> .npmrc\n\nCtrl-C stops the registry and removes its storage.`);
  const end = () => {
    stop();
    process.exit(0);
  };
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
}
