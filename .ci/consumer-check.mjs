// The packages as a new user gets them. Publishes every @svc package to a real npm registry on 127.0.0.1
// (scripts/local-registry.mjs), then, in fresh apps outside the workspace, runs the README's Quick start as printed:
// its .npmrc line and its install lines (pnpm or npm; unpinned, so peers and TypeScript resolve to what the registry
// serves today: TypeScript 7 on the newest line, 5 on the oldest), writes its tsconfig.json and source files, builds
// them with the tsc it installed and calls the app as its curl lines do. Each app also imports every
// @svc package it has (with the optional surfaces' peers added as their guides say) and checks that Svc shares the
// app's own @nestjs/* and typeorm. Apps: CommonJS on Node 24 with pnpm and with npm, an ECMAScript-module app on
// Node 22, and the oldest line on the machine's Node 20; and a CommonJS app on Node 24 that installs with npm's
// legacy-peer-deps, as yarn and pnpm with auto-install-peers=false do: no peer is installed for it, required or
// optional (@opentelemetry/api among them), so it has what the Quick start names and nothing else.
//
//   node .ci/consumer-check.mjs          (after pnpm install; builds the packages itself)
//   SVC_CONSUMER_KEEP=1 keeps the app folders; SVC_CONSUMER_APPS=esm-node22,... runs only those.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, run, startLocalRegistry, workspacePackages } from '../scripts/local-registry.mjs';

/**
 * The packages an app adds beyond the Quick start to load every @svc package, as the guides install them, and
 * @nestjs/swagger, which npm refuses beside TypeScript 7 without the override the Quick start's npm lines set.
 */
const SURFACE_PEERS = ['graphql', 'graphql-http', '@modelcontextprotocol/server', 'ioredis', '@nestjs/swagger'];
/** The line the installing guide gives npm users of @svc/redis on TypeORM 1 (read from the guide, as printed). */
const NPM_IOREDIS_OVERRIDE = (() => {
  const guide = readFileSync(join(REPO_ROOT, 'docs', 'guide', 'installing.md'), 'utf8');
  const line = guide.split('\n').find((text) => text.startsWith("npm pkg set 'overrides.typeorm.ioredis="));
  if (!line) throw new Error('docs/guide/installing.md gives no npm override for ioredis');
  return line;
})();
/** The versions reported for each app. */
const REPORTED = [
  '@svc/nestjs',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/typeorm',
  'typeorm',
  'better-sqlite3',
  'class-validator',
  'graphql',
  'ioredis',
  '@modelcontextprotocol/server',
  '@nestjs/swagger',
  'typescript',
];

/** The majors (the line) each app must have resolved: an unpinned install that lands elsewhere fails the check. */
const NEWEST_LINE = {
  '@nestjs/common': '12',
  '@nestjs/core': '12',
  typeorm: '1',
  'better-sqlite3': '13',
  'class-validator': '0.15',
  graphql: '17',
  ioredis: '6',
  '@nestjs/swagger': '12',
  typescript: '7',
};
/** The newest line of the packages the Quick start names itself (the app without peers has no others). */
const QUICK_START_NEWEST_LINE = {
  '@nestjs/common': '12',
  '@nestjs/core': '12',
  typeorm: '1',
  'better-sqlite3': '13',
  'class-validator': '0.15',
  typescript: '7',
};
const OLDEST_LINE = {
  '@nestjs/common': '11',
  '@nestjs/core': '11',
  typeorm: '0.3',
  'better-sqlite3': '12',
  'class-validator': '0.14',
  graphql: '16',
  ioredis: '5',
  '@nestjs/swagger': '11',
  typescript: '5',
};

const APPS = [
  { name: 'cjs-node24-pnpm', node: '24', install: 'pnpm', esm: false, line: NEWEST_LINE },
  { name: 'cjs-node24-npm', node: '24', install: 'npm', esm: false, line: NEWEST_LINE },
  { name: 'esm-node22-pnpm', node: '22', install: 'pnpm', esm: true, line: NEWEST_LINE },
  { name: 'oldest-node20-pnpm', node: 'system', install: 'oldest', esm: false, line: OLDEST_LINE },
  {
    name: 'cjs-node24-npm-no-peers',
    node: '24',
    install: 'npm',
    esm: false,
    line: QUICK_START_NEWEST_LINE,
    peers: false,
  },
];

/** The @svc packages the Quick start installs: all an app without peers has. */
const QUICK_START_PACKAGES = ['core', 'nestjs', 'typeorm'];

/**
 * The README's Quick start: its shell blocks, its tsconfig.json and its source files (each opens with a
 * `// <file>` line).
 */
function quickStart() {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Quick start'),
    readme.indexOf('\n## ', readme.indexOf('## Quick start') + 3),
  );
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({ lang, body }));
  const tsconfig = blocks.find((block) => block.lang === 'jsonc' && block.body.startsWith('// tsconfig.json\n'));
  if (!tsconfig) throw new Error("the README's Quick start has no tsconfig.json block");
  const shell = blocks.filter((block) => block.lang === 'sh').map((block) => block.body);
  const find = (what, test) => {
    const found = shell.find(test);
    if (!found) throw new Error(`the README's Quick start has no ${what} block`);
    return found;
  };
  const files = blocks
    .filter((block) => block.lang === 'ts')
    .map((block) => {
      const path = /^\/\/ (src\/\S+\.ts)\n/.exec(block.body)?.[1];
      if (!path) throw new Error(`a Quick start TypeScript block does not open with its file name:\n${block.body}`);
      return { path, text: block.body };
    });
  return {
    registry: find('.npmrc', (body) => body.includes('@svc:registry=')),
    installs: {
      pnpm: find('pnpm install', (body) => body.startsWith('pnpm add') && !body.includes('@nestjs/common@11')),
      npm: find('npm install', (body) => body.includes('npm install @svc/core')),
      oldest: find('oldest-line install', (body) => body.includes('@nestjs/common@11')),
    },
    tsconfig: tsconfig.body,
    files,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The environment that runs everything of one app on its Node. */
function envFor(app) {
  if (app.node === 'system') return { ...process.env };
  const bin = execFileSync(join(REPO_ROOT, '.ci', 'install-node'), [app.node], { encoding: 'utf8' }).trim();
  return { ...process.env, PATH: `${bin}:${process.env.PATH}` };
}

function sh(script, cwd, env) {
  console.log(`$ ${script.trim().split('\n').join('\n  ')}`);
  run('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, timeout: 10 * 60_000 });
}

/** What an app checks beside the Quick start: each of `names` (@svc packages) loads, on the app's own Nest and TypeORM. */
function platformCheck(esm, names) {
  const packages = names.map((name) => `@svc/${name}`);
  const shared = { '@svc/nestjs': ['@nestjs/common', '@nestjs/core'], '@svc/typeorm': ['typeorm'] };
  const body = `
const packages = ${JSON.stringify(packages)};
const shared = ${JSON.stringify(shared)};
const appRequire = createRequire(${esm ? 'import.meta.url' : '__filename'});
for (const name of packages) {
  const loaded = ${esm ? 'await import(name)' : 'require(name)'};
  if (Object.keys(loaded).length < 2) throw new Error(name + ' loaded without its exports');
}
for (const [svc, peers] of Object.entries(shared)) {
  const svcRequire = createRequire(realpathSync(appRequire.resolve(svc)));
  for (const peer of peers) {
    const mine = realpathSync(appRequire.resolve(peer));
    const theirs = realpathSync(svcRequire.resolve(peer));
    if (mine !== theirs) throw new Error(svc + ' loads ' + peer + ' from ' + theirs + ', the app from ' + mine);
  }
}
console.log('platform check: ' + packages.length + ' packages imported; Svc shares the app\\'s @nestjs/common, @nestjs/core and typeorm');
`;
  // The imports make the file a module in either kind of app.
  return `import { createRequire } from 'node:module';\nimport { realpathSync } from 'node:fs';\n${body}`;
}

async function waitForApp(url, child, deadline) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`the app did not listen at ${url} in time`);
}

/** Starts the built app and asks it what the README's curl lines ask. */
async function callApp(dir, env) {
  const port = await freePort();
  const child = spawn('node', ['dist/main.js'], { cwd: dir, env: { ...env, PORT: String(port) }, stdio: 'inherit' });
  const base = `http://127.0.0.1:${port}/books`;
  try {
    await waitForApp(base, child, Date.now() + 30_000);
    const created = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Dune', pages: 412 }),
    });
    const book = await created.json();
    if (created.status !== 201 || book.title !== 'Dune')
      throw new Error(`POST /books answered ${created.status}: ${JSON.stringify(book)}`);
    const listed = await fetch(`${base}?filter[pages][gte]=300&sort=-pages&limit=10`);
    const list = await listed.json();
    if (listed.status !== 200 || list.total < 1 || list.items?.[0]?.title !== 'Dune')
      throw new Error(`GET /books answered ${listed.status}: ${JSON.stringify(list)}`);
    return `POST /books 201, GET /books?filter[pages][gte]=300 200 with ${list.total} row(s)`;
  } finally {
    child.kill();
  }
}

/** The app's Node and the versions it resolved, checked against the app's Node and line; throws on a mismatch. */
function versionsIn(app, dir, env) {
  const node = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim().replace(/^v/, '');
  const [major, minor] = node.split('.').map(Number);
  const wanted = app.node === 'system' ? 20 : Number(app.node);
  if (major !== wanted || (major === 20 && minor < 19)) throw new Error(`${app.name} ran on Node ${node}`);
  const installed = Object.fromEntries(
    REPORTED.map((name) => {
      try {
        return [name, JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version];
      } catch {
        return [name, '-'];
      }
    }),
  );
  for (const [name, line] of Object.entries(app.line)) {
    const version = installed[name] ?? '-';
    if (version !== line && !version.startsWith(`${line}.`))
      throw new Error(`${app.name} resolved ${name} ${version}, outside its line (${line})`);
  }
  return `node ${node}, ${REPORTED.map((name) => `${name} ${installed[name]}`).join(', ')}`;
}

/** The optional surfaces' packages, as an app adds them after the Quick start (pinned to the oldest line there). */
function surfacesFor(app) {
  const surfaces = [...workspacePackages().map((name) => `@svc/${name}`), ...SURFACE_PEERS];
  const oldest = app.install === 'oldest' ? ['graphql@16', 'ioredis@5', '@nestjs/swagger@11'] : [];
  return [...surfaces.filter((name) => !oldest.some((pin) => pin.startsWith(`${name}@`))), ...oldest];
}

async function checkApp(app, start, root) {
  const dir = join(root, app.name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  const env = envFor(app);
  const manifest = { name: `svc-consumer-${app.name}`, version: '0.0.0', private: true };
  if (app.esm) manifest.type = 'module';
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const withPeers = app.peers !== false;
  // npm's own setting for installing no peers, as an app sets it; the README's lines then run as printed.
  if (!withPeers) writeFileSync(join(dir, '.npmrc'), 'legacy-peer-deps=true\n');
  // The Quick start as printed: the registry line, then the install lines, TypeScript and @types/node among them.
  sh(start.registry, dir, env);
  sh(start.installs[app.install], dir, env);
  const names = withPeers ? workspacePackages() : QUICK_START_PACKAGES;
  if (!withPeers) {
    // Nothing beside the Quick start; no optional peer may have come in.
    if (existsSync(join(dir, 'node_modules', '@opentelemetry', 'api')))
      throw new Error(`${app.name} has @opentelemetry/api installed, so it does not show an app without peers`);
  } else if (app.install === 'npm') {
    // TypeORM 1 declares ioredis ^5 as an optional peer, and npm refuses ioredis 6 beside it: the override the
    // installing guide gives for @svc/redis with npm. @nestjs/swagger goes in under the Quick start's own override.
    sh(NPM_IOREDIS_OVERRIDE, dir, env);
    sh(`npm install --no-audit --no-fund ${surfacesFor(app).join(' ')}`, dir, env);
  } else {
    sh(`pnpm add ${surfacesFor(app).join(' ')}`, dir, env);
  }
  for (const file of start.files) {
    const text = app.esm ? file.text.replace(/from '(\.\/[^']+)'/g, "from '$1.js'") : file.text;
    writeFileSync(join(dir, file.path), text);
  }
  writeFileSync(join(dir, 'src', 'platform-check.ts'), platformCheck(app.esm, names));
  // The Quick start's tsconfig.json as printed, for a CommonJS and an ECMAScript-module app alike.
  writeFileSync(join(dir, 'tsconfig.json'), start.tsconfig);
  sh('node_modules/.bin/tsc -p .', dir, env);
  sh('node dist/platform-check.js', dir, env);
  const calls = await callApp(dir, env);
  return { app: app.name, versions: versionsIn(app, dir, env), calls };
}

const started = Date.now();
const only = process.env.SVC_CONSUMER_APPS?.split(',');
const apps = only ? APPS.filter((app) => only.includes(app.name)) : APPS;
const start = quickStart();
// The README's .npmrc line names port 4873, and it is run as printed.
const registry = await startLocalRegistry({ port: 4873 });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    registry.stop();
    process.exit(1);
  });
}
const root = mkdtempSync(join(tmpdir(), 'svc-consumers-'));
const results = [];
let failed = false;
try {
  for (const app of apps) {
    const began = Date.now();
    console.log(`\n== consumer app ${app.name}`);
    try {
      const result = await checkApp(app, start, root);
      results.push({ ...result, seconds: Math.round((Date.now() - began) / 1000) });
    } catch (error) {
      failed = true;
      console.error(`consumer app ${app.name} FAILED: ${error.message ?? error}`);
      results.push({ app: app.name, failed: String(error.message ?? error).split('\n')[0] });
    }
  }
} finally {
  registry.stop();
  if (!failed && !process.env.SVC_CONSUMER_KEEP) rmSync(root, { recursive: true, force: true });
  else console.log(`the apps are left in ${root}`);
}
console.log('\nconsumer-check summary');
for (const result of results) {
  if (result.failed) console.log(`- ${result.app}: FAILED (${result.failed})`);
  else console.log(`- ${result.app} (${result.seconds} s): ${result.calls}\n    ${result.versions}`);
}
console.log(`consumer-check: ${failed ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s`);
if (failed) process.exit(1);
