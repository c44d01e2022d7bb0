/**
 * A typed client of the example, as a user makes one: openapi-typescript turns the app's own document into types,
 * and a small openapi-fetch program lists, filters (the JSON filter, typed by `BookFilter`), creates and patches
 * books. The program must type-check, a misspelt field must not, and the program runs against the app.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { writeTestOutput } from '../../../test/support/openapi-checks';
import { report } from '../../../test/support/test-report';
import { serveApiDocs } from '../src/api-docs';
import { listenExample } from './example-app';
import { tokenFor } from './tokens';

/** The workspace's own installs (the packages' `exports` do not list their command-line entry points). */
const NODE_MODULES = join(__dirname, '..', '..', '..', 'node_modules');
const OPENAPI_TYPESCRIPT = join(NODE_MODULES, 'openapi-typescript', 'bin', 'cli.js');
const TSC = join(NODE_MODULES, 'typescript', 'bin', 'tsc');

/** The program a user writes against the generated types: every call typed by the document. */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

type Book = components['schemas']['Book'];
type BookFilter = components['schemas']['BookFilter'];

async function main(base: string, token: string): Promise<void> {
  const client = createClient<paths>({ baseUrl: base });
  // Writes need an editor's bearer token (the document's bearer scheme).
  const editor = { authorization: 'Bearer ' + token };
  const page = await client.GET('/books', { params: { query: { limit: 2, sort: ['-pages'] } } });
  const created = await client.POST('/books', { body: { title: 'Typed client', pages: 12 }, headers: editor });
  const book: Book | undefined = created.data;
  const patched = await client.PATCH('/books/{id}', {
    params: { path: { id: book!.id! } },
    body: { pages: 1200 },
    headers: editor,
  });
  // The JSON filter, typed by BookFilter; the document sends it as JSON (openapi-typescript types it as its text).
  const filter: BookFilter = { or: [{ title: { contains: 'Typed' } }, { pages: { gte: 1000 } }] };
  const filtered = await client.GET('/books', { params: { query: { filter: JSON.stringify(filter), sort: ['title'] } } });
  console.log(
    JSON.stringify({
      listed: page.data?.items.length,
      total: page.data?.total,
      created: { status: created.response.status, title: book?.title },
      patched: { status: patched.response.status, pages: patched.data?.pages },
      filtered: filtered.data?.items.map((item) => item.title),
    }),
  );
}

main(process.argv[2]!, process.argv[3]!).catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

function run(args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** Type-checks `file` (strict) beside the generated types. */
function typeCheck(dir: string, file: string): Promise<{ code: number; output: string }> {
  return run(
    [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--esModuleInterop', file],
    dir,
  );
}

describe('a typed client of the example, from its own document', () => {
  let app: INestApplication;
  let base: string;
  let dir: string;
  let schemaLines: number;

  beforeAll(async () => {
    ({ app, base } = await listenExample(serveApiDocs));
    const document = await (await fetch(`${base}/docs-json`)).text();
    dir = dirname(writeTestOutput('typed-client/openapi.json', document));
    const generated = await run([OPENAPI_TYPESCRIPT, 'openapi.json', '-o', 'schema.d.ts'], dir);
    if (generated.code !== 0) throw new Error(`openapi-typescript failed:\n${generated.output}`);
    schemaLines = readFileSync(join(dir, 'schema.d.ts'), 'utf8').split('\n').length;
    report(`typed client of the example: schema.d.ts ${schemaLines} lines`);
    writeTestOutput('typed-client/client.ts', PROGRAM);
    writeTestOutput('typed-client/typo.ts', PROGRAM.replace("title: 'Typed client'", "titel: 'Typed client'"));
    writeTestOutput(
      'typed-client/typo-filter.ts',
      PROGRAM.replace("{ title: { contains: 'Typed' } }", "{ titel: { contains: 'Typed' } }"),
    );
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('gives each named schema a type to import, in a file of reasonable size', () => {
    const schema = readFileSync(join(dir, 'schema.d.ts'), 'utf8');
    for (const name of ['Book', 'BookList', 'BookCreate', 'BookPatch', 'BookFilter', 'Problem']) {
      expect(schema).toMatch(new RegExp(`\\n\\s+${name}: \\{`));
    }
    expect(schemaLines).toBeLessThan(7_540);
  });

  it('type-checks the program, and refuses it with a misspelt field', async () => {
    const good = await typeCheck(dir, 'client.ts');
    expect(good.output).toBe('');
    expect(good.code).toBe(0);
    for (const file of ['typo.ts', 'typo-filter.ts']) {
      const typo = await typeCheck(dir, file);
      expect(typo.code).not.toBe(0);
      expect(typo.output).toMatch(/titel/);
    }
  }, 120_000);

  it('runs the program against the app: lists, creates, patches and filters by the JSON filter', async () => {
    const built = await run(
      [
        TSC,
        '--strict',
        '--target',
        'es2022',
        '--module',
        'commonjs',
        '--esModuleInterop',
        '--outDir',
        'out',
        'client.ts',
      ],
      dir,
    );
    expect(built.output).toBe('');
    const ran = await run([join(dir, 'out', 'client.js'), base, tokenFor('editor')], dir);
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.output) as {
      listed: number;
      total: number;
      created: { status: number; title: string };
      patched: { status: number; pages: number };
      filtered: string[];
    };
    expect(result.listed).toBe(2);
    expect(result.total).toBeGreaterThan(2);
    expect(result.created).toEqual({ status: 201, title: 'Typed client' });
    expect(result.patched).toEqual({ status: 200, pages: 1200 });
    expect(result.filtered).toContain('Typed client');
  }, 120_000);
});
