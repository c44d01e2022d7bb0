/**
 * `@svc/core/spi` carries only what is built on: each name it exports is imported from it by a package other than core
 * (packages' sources, examples/, test/, bench/), or its export carries an `@extensionPoint` tag saying who implements
 * or calls it, for a third-party adapter, transport or surface that no package here stands for.
 */
import { join } from 'node:path';
import * as ts from 'typescript';
import { filesUnder, fromRoot, packageDirs, readText, REPO_ROOT } from './repo-files';

const SPI = join(REPO_ROOT, 'packages', 'core', 'src', 'spi.ts');
const SPECIFIER = '@svc/core/spi';
const TAG = 'extensionPoint';

/** One name the SPI exports, and the text of its declaration's `@extensionPoint` tag, if it has one. */
interface SpiExport {
  readonly name: string;
  readonly extensionPoint: string | undefined;
}

function spiExports(): SpiExport[] {
  const source = ts.createSourceFile(SPI, readText(SPI), ts.ScriptTarget.Latest, true);
  const out: SpiExport[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const tag = ts.getJSDocTags(statement).find((candidate) => candidate.tagName.text === TAG);
    const extensionPoint = tag ? (ts.getTextOfJSDocComment(tag.comment) ?? '').trim() : undefined;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) {
      out.push({ name: statement.getText(source), extensionPoint });
      continue;
    }
    for (const element of clause.elements) out.push({ name: element.name.text, extensionPoint });
  }
  return out;
}

/** The TypeScript sources outside core that may import the SPI. */
function importerFiles(): string[] {
  const roots = [
    ...packageDirs()
      .filter((dir) => fromRoot(dir) !== join('packages', 'core'))
      .map((dir) => join(dir, 'src')),
    ...['examples', 'test', 'bench'].map((folder) => join(REPO_ROOT, folder)),
  ];
  const skipped = /[\\/](node_modules|dist)[\\/]/;
  return roots
    .flatMap((root) => filesUnder(root, '.ts'))
    .filter((file) => !skipped.test(fromRoot(file)) && !file.endsWith('.d.ts'));
}

/** The names a source takes from the SPI: named imports and re-exports, `import('...').X` and `ns.X` of a namespace. */
function namesImported(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names: string[] = [];
  const namespaces = new Set<string>();
  const fromSpi = (specifier: ts.Node | undefined) =>
    specifier !== undefined && ts.isStringLiteral(specifier) && specifier.text === SPECIFIER;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && fromSpi(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
      } else if (bindings && ts.isNamespaceImport(bindings)) {
        namespaces.add(bindings.name.text);
      }
    } else if (ts.isExportDeclaration(node) && fromSpi(node.moduleSpecifier)) {
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.push((element.propertyName ?? element.name).text);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && fromSpi(node.argument.literal)) {
      const qualifier = node.qualifier;
      if (qualifier) names.push(ts.isIdentifier(qualifier) ? qualifier.text : leftmost(qualifier));
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      if (namespaces.has(node.expression.text)) names.push(node.name.text);
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      if (namespaces.has(node.left.text)) names.push(node.right.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function leftmost(name: ts.QualifiedName): string {
  return ts.isIdentifier(name.left) ? name.left.text : leftmost(name.left);
}

describe('@svc/core/spi', () => {
  const exported = spiExports();
  const imported = new Set(importerFiles().flatMap((file) => namesImported(file, readText(file))));

  it('exports names', () => {
    expect(exported.length).toBeGreaterThan(0);
  });

  it('exports each name by name (no export *)', () => {
    const unnamed = exported.filter(({ name }) => !/^[A-Za-z_$][\w$]*$/.test(name)).map(({ name }) => name);
    expect(unnamed).toEqual([]);
  });

  it('is imported by the packages outside core', () => {
    expect(imported.size).toBeGreaterThan(0);
  });

  it('exports only names a package outside core imports, or an extension point that says who uses it', () => {
    const offenders = exported
      .filter(({ name, extensionPoint }) => !imported.has(name) && !extensionPoint)
      .map(
        ({ name, extensionPoint }) =>
          `${name}: no package outside core imports it from ${SPECIFIER}` +
          (extensionPoint === '' ? ' and its @extensionPoint tag names no one. ' : '. ') +
          `Remove it from packages/core/src/spi.ts, or give its export a JSDoc "@${TAG} <who implements or calls it>".`,
      );
    expect(offenders).toEqual([]);
  });
});
