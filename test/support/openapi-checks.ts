/** Checks of an OpenAPI document: @apidevtools/swagger-parser validation, and Redocly's recommended lint rules. */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';

/** Where tests leave what a person may want to look at afterwards (documents, screenshots). */
export const TEST_OUTPUT_DIR = join(__dirname, '..', '..', 'test-output');

/** Writes a file under the test output directory and returns its path. */
export function writeTestOutput(name: string, content: string | Buffer): string {
  const path = join(TEST_OUTPUT_DIR, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/**
 * The document with every `$ref` to `#/components/schemas/...` replaced by the schema it names, for tests that read a
 * route's schemas directly. A reference back into a schema being inlined (a filter's `and` groups) becomes `{}`.
 */
export function dereferenced<T extends object>(document: T): T {
  const schemas = ((document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ??
    {}) as Record<string, unknown>;
  const inline = (value: unknown, open: ReadonlySet<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, open));
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (open.has(name) || !(name in schemas)) return {};
      return inline(schemas[name], new Set([...open, name]));
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, open)]));
  };
  return { ...document, paths: inline((document as { paths?: unknown }).paths, new Set()) } as T;
}

/** Validates the document against the OpenAPI schema of its version (a copy: the parser dereferences in place). */
export async function validateOpenApi(document: object): Promise<void> {
  await SwaggerParser.validate(structuredClone(document) as never);
}

export interface LintResult {
  readonly exitCode: number;
  /** Problems by rule id, errors and warnings. */
  readonly problems: readonly { readonly ruleId: string; readonly severity: string; readonly message: string }[];
  readonly output: string;
}

/** Runs `redocly lint` (built-in recommended rules) on the document in a child process. */
export function lintOpenApi(document: object, name: string): Promise<LintResult> {
  const file = writeTestOutput(`openapi/${name}.json`, JSON.stringify(document, null, 2));
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'lint', file, '--format=json'],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: number }).code ?? 1) : 0;
        let problems: LintResult['problems'] = [];
        try {
          const start = stdout.indexOf('{');
          const parsed = JSON.parse(stdout.slice(start)) as { problems?: LintResult['problems'] };
          problems = parsed.problems ?? [];
        } catch {
          // not JSON: the output below says why
        }
        resolve({ exitCode, problems, output: `${stdout}\n${stderr}` });
      },
    );
  });
}
