/**
 * A jest transform for the packages that publish ECMAScript modules only (jest.config.ts lists them), on a Node where
 * jest cannot require such a module (before 24.9, or without --experimental-vm-modules), while the app's own files are
 * CommonJS: TypeScript's transpiler rewrites the imports and exports as CommonJS, and what those packages do that only
 * a module can becomes its CommonJS equivalent: a `require` made by `createRequire(import.meta.url)` is the module's
 * own `require`, `import.meta.url`, `dirname` and `filename` the file's URL, folder and path, and `import.meta.resolve`
 * a `require.resolve` (they call it only to learn whether an optional peer is installed).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** This file's own hash: a change here invalidates jest's cache of what it transformed. */
const SELF = createHash('sha256')
  .update(readFileSync(new URL(import.meta.url)))
  .digest('hex');

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  sourceMap: false,
};

function process(source, path) {
  const commonJs = source
    .replace(/^(const|let|var) require = createRequire\(import\.meta\.url\);$/gm, '')
    .replace(/\bimport\.meta\.url\b/g, "require('node:url').pathToFileURL(__filename).href")
    .replace(/\bimport\.meta\.dirname\b/g, '__dirname')
    .replace(/\bimport\.meta\.filename\b/g, '__filename')
    .replace(/\bimport\.meta\.resolve\(/g, 'require.resolve(');
  return { code: ts.transpileModule(commonJs, { fileName: path, compilerOptions: COMPILER_OPTIONS }).outputText };
}

function getCacheKey(source, path) {
  return createHash('sha256').update(SELF).update(path).update(source).digest('hex');
}

export default { process, getCacheKey };
