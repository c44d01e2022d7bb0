/**
 * The context is typed by the app through declaration merging (`SvcContextTypes`). Compiled here as a program of its
 * own, so the augmentation does not leak into the rest of the repo's type check.
 */
import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** The diagnostics of `source` compiled against @svc/core's sources. */
function compile(source: string): string[] {
  const file = join(ROOT, 'packages', 'core', 'test', 'types', '__virtual__.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    experimentalDecorators: true,
    skipLibCheck: true,
    types: [],
    baseUrl: ROOT,
    paths: { '@svc/core': ['packages/core/src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === file ? ts.createSourceFile(name, source, language) : read(name, language);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('SvcContextTypes', () => {
  it('types context.request in policy, apply and handlers once the app declares it', () => {
    const errors = compile(`
      import type { EntityConfig } from '@svc/core';
      interface AppRequest { user?: { id: number; roles: string[] }; headers: Record<string, string> }
      declare module '@svc/core' {
        interface SvcContextTypes { request: AppRequest }
      }
      export const config: EntityConfig = {
        policy: ({ context }) => context.request?.user?.roles.includes('editor') === true,
        filter: { apply: ({ context }) => ({ ownerId: { eq: context.request?.user?.id ?? -1 } }) },
        operations: {
          pingOne: { handler: (_input, context) => context.request?.headers['x-trace'] ?? null },
        },
      };
      // @ts-expect-error the declared request has no 'nope'
      export const wrong: EntityConfig = { policy: ({ context }) => context.request?.nope === 1 };
    `);
    expect(errors).toEqual([]);
  });

  it('leaves context.request unknown when the app declares nothing', () => {
    const errors = compile(`
      import type { EntityConfig } from '@svc/core';
      export const config: EntityConfig = {
        // @ts-expect-error request is unknown until the app declares its type
        policy: ({ context }) => context.request.user !== undefined,
      };
    `);
    expect(errors).toEqual([]);
  });
});
