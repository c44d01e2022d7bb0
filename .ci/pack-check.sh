#!/usr/bin/env bash
# The packages as a consumer gets them: pack @svc/core, @svc/typeorm, @svc/nestjs, @svc/sse, @svc/graphql and @svc/mcp,
# install the tarballs with npm into a fresh app outside the workspace (with the peers at the versions the workspace
# tests), boot that app on SQLite with realtime, GraphQL and the MCP tools on, and ask it for a list, an event stream's
# headers, a GraphQL query and the tool list. Nothing is copied from the workspace's node_modules: npm resolves, fetches and builds
# everything itself (better-sqlite3 included), so a missing file, export, dependency or peer fails here.
# PACK_CHECK_KEEP=1 keeps the app folder after a pass (it is always kept after a failure).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
STARTED=$SECONDS
PACKAGES=(core typeorm nestjs sse graphql mcp)
# The peers (and the app's own stack) the tarballs are installed with; their versions are the workspace's.
PEERS=(
  @nestjs/common @nestjs/core @nestjs/platform-express @nestjs/typeorm typeorm better-sqlite3
  reflect-metadata rxjs class-validator class-transformer graphql graphql-http @modelcontextprotocol/server
)

WORK=$(mktemp -d /tmp/svc-pack-check.XXXXXX)
finish() {
  local status=$?
  if [ "$status" -eq 0 ]; then
    [ -n "${PACK_CHECK_KEEP:-}" ] || rm -rf "$WORK"
    echo "pack-check: passed in $((SECONDS - STARTED)) s"
  else
    echo "pack-check: FAILED after $((SECONDS - STARTED)) s; the packed app is left in $WORK" >&2
  fi
}
trap finish EXIT

pnpm build

# Each package's prepack builds it again (a no-op after the build above, the whole build from a fresh clone).
mkdir -p "$WORK/tarballs"
for pkg in "${PACKAGES[@]}"; do
  (cd "packages/$pkg" && pnpm pack --pack-destination "$WORK/tarballs" >/dev/null)
done
for tarball in "$WORK"/tarballs/*.tgz; do
  contents=$(tar -tzf "$tarball")
  for file in package/package.json package/README.md package/LICENSE package/dist/index.js package/dist/index.d.ts; do
    if ! grep -qx "$file" <<<"$contents"; then
      echo "pack-check: $(basename "$tarball") does not contain $file" >&2
      exit 1
    fi
  done
done
echo "pack-check: packed $(cd "$WORK/tarballs" && ls -- *.tgz | tr '\n' ' ')"

# The app's package.json: the three tarballs, and each peer at the exact version installed in the workspace.
mkdir -p "$WORK/app"
node - "$ROOT" "$WORK" "${PEERS[@]}" <<'EOF'
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const [root, work, ...peers] = process.argv.slice(2);
const dependencies = {};
for (const tarball of readdirSync(join(work, 'tarballs'))) {
  const name = tarball.replace(/^svc-(\w+)-.*\.tgz$/, '@svc/$1');
  dependencies[name] = `file:${join(work, 'tarballs', tarball)}`;
}
for (const peer of peers) {
  dependencies[peer] = JSON.parse(readFileSync(join(root, 'node_modules', peer, 'package.json'), 'utf8')).version;
}
const manifest = {
  name: 'svc-pack-check-app',
  private: true,
  version: '0.0.0',
  dependencies,
  allowScripts: { 'better-sqlite3': true },
};
writeFileSync(join(work, 'app', 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
EOF

# A consumer's app in plain CommonJS: an EntitySchema entity, decorators applied with Reflect.decorate.
cat >"$WORK/app/main.js" <<'EOF'
require('reflect-metadata');
const { Controller, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { TypeOrmModule } = require('@nestjs/typeorm');
const { EntitySchema } = require('typeorm');
const { Svc, SvcModule } = require('@svc/nestjs');
const { typeorm } = require('@svc/typeorm');
const { createSvc } = require('@svc/core');
const { sse } = require('@svc/sse');

class Book {}
const BookSchema = new EntitySchema({
  name: 'Book',
  target: Book,
  columns: {
    id: { type: Number, primary: true, generated: true },
    title: { type: 'varchar', length: 200 },
    pages: { type: 'int', default: 0 },
  },
});

const BooksController = Reflect.decorate(
  [Svc(Book, { filter: { fields: ['title', 'pages'] }, realtime: {} }), Controller('books')],
  class BooksController {},
);

const AppModule = Reflect.decorate(
  [
    Module({
      imports: [
        TypeOrmModule.forRoot({ type: 'better-sqlite3', database: ':memory:', entities: [BookSchema], synchronize: true }),
        SvcModule.forRoot({ infrastructure: typeorm(), realtimeTransports: [sse()], graphql: true, mcp: true }),
      ],
      controllers: [BooksController],
    }),
  ],
  class AppModule {},
);

async function main() {
  if (typeof createSvc !== 'function') throw new Error('@svc/core does not export createSvc');
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/books`;
  try {
    const created = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Dune', pages: 412 }),
    });
    if (created.status !== 201) throw new Error(`POST /books answered ${created.status}: ${await created.text()}`);
    const listed = await fetch(`${base}?filter[pages][gte]=100`);
    const body = await listed.json();
    if (listed.status !== 200) throw new Error(`GET /books answered ${listed.status}: ${JSON.stringify(body)}`);
    const envelope = Array.isArray(body.items) && ['limit', 'offset', 'total'].every((key) => key in body);
    if (!envelope || body.total !== 1 || body.items[0].title !== 'Dune') {
      throw new Error(`GET /books did not answer the created book in a list envelope: ${JSON.stringify(body)}`);
    }
    console.log(`GET /books answered 200 with ${JSON.stringify(body)}`);
    const root = base.replace(/\/books$/, '');
    const events = await fetch(`${base}/events`, { method: 'HEAD' });
    if (events.status !== 200 || !String(events.headers.get('content-type')).startsWith('text/event-stream'))
      throw new Error(`HEAD /books/events answered ${events.status} ${events.headers.get('content-type')}`);
    const graphql = await fetch(`${root}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ books { total items { title } } }' }),
    });
    const answer = await graphql.json();
    if (graphql.status !== 200 || answer.data?.books?.items?.[0]?.title !== 'Dune')
      throw new Error(`POST /graphql answered ${graphql.status}: ${JSON.stringify(answer)}`);
    const tools = await fetch(`${root}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const listedTools = await tools.text();
    if (tools.status !== 200 || !listedTools.includes('book_find_many'))
      throw new Error(`POST /mcp tools/list answered ${tools.status}: ${listedTools.slice(0, 300)}`);
    console.log('GET /books/events, POST /graphql and POST /mcp tools/list answered as expected');
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
EOF

# Run from the app's own folder so no workspace config or node_modules above it is consulted.
cd "$WORK/app"
install_started=$SECONDS
npm install --no-audit --no-fund --no-package-lock --foreground-scripts
echo "pack-check: npm install took $((SECONDS - install_started)) s"
node main.js
