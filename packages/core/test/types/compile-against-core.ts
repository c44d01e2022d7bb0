/** Compiles a program of its own against @svc/core's sources, for type tests whose source must not leak into the repo's. */
import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** The diagnostics of `source`, compiled as the file `name` beside this one. */
export function compileAgainstCore(source: string, name = '__virtual__.ts'): string[] {
  const file = join(ROOT, 'packages', 'core', 'test', 'types', name);
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
  host.getSourceFile = (fileName, language) =>
    fileName === file ? ts.createSourceFile(fileName, source, language) : read(fileName, language);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}
