/** The fenced code blocks of a Markdown file, with the section (the nearest heading above) each sits in. */
import { readFileSync } from 'node:fs';

/** What runs the guides' blocks that show the app under test/guide-app. */
const GUIDE_APP_TESTS = 'test/guide-app/test (tied by test/repo/guide-app-code.test.ts)';

/** Sections whose blocks a test runs as printed, and the test that does (test/repo/docs-code-blocks.test.ts). */
export const RUN_SECTIONS: readonly { file: string; section: string; runBy: string }[] = [
  // The first screen: `pnpm example` (examples/nest-typeorm/test/example-process.test.ts) and `pnpm test` (.ci/run).
  { file: 'README.md', section: 'Svc', runBy: '.ci/run and example-process.test.ts' },
  { file: 'README.md', section: 'Quick start', runBy: '.ci/consumer-check.mjs' },
  ...['Try it', 'Authentication', 'Roles', 'Nested writes', 'Realtime', 'GraphQL'].map((section) => ({
    file: 'examples/nest-typeorm/README.md',
    section,
    runBy: 'examples/nest-typeorm/test/readme-commands.e2e.test.ts',
  })),
  // The code of the app under test/guide-app, which its tests run; test/repo/guide-app-code.test.ts ties each block.
  ...[
    '2. Let the module take its database',
    '3. Boot the app on a database of its own',
    '4. Sign tokens',
    '5. Seed',
    '6. Check problem details',
    '7. Test a policy',
    '8. Test a scope with two callers',
    '9. GraphQL and the agent tools',
  ].map((section) => ({ file: 'docs/guide/testing.md', section, runBy: GUIDE_APP_TESTS })),
  ...[
    '1. Install and register',
    '2. The guard',
    '3. Public routes',
    '4. Feeding the policy, the scope and the written values',
    '6. Testing the guard',
  ].map((section) => ({ file: 'docs/guide/authentication.md', section, runBy: GUIDE_APP_TESTS })),
];

export interface DocBlock {
  readonly file: string;
  /** The fence's language (`sh`, `ts`, ...). */
  readonly lang: string;
  readonly body: string;
  /** The nearest heading above the block, without its #s. */
  readonly section: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

/** Every fenced block of `file` (``` fences; a block inside a list item keeps its indentation stripped). */
export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let section = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) section = heading[1]!.trim();
    const fence = /^(\s*)```(\w*)/.exec(line);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) body.push(lines[end++]!.slice(indent));
    blocks.push({ file, lang: fence[2]!, body: body.join('\n'), section, line: index + 1 });
    index = end;
  }
  return blocks;
}

/** True when the block's first line says it is a fragment (`// Fragment: ...`, `# Fragment: ...`). */
export function isMarkedFragment(block: DocBlock): boolean {
  return /^\s*(\/\/|#)\s*Fragment\b/.test(block.body.split('\n')[0] ?? '');
}

/** The shell commands of a block: comment lines dropped, `\` continuations joined. */
export function shellCommands(block: DocBlock): string[] {
  const commands: string[] = [];
  let current = '';
  for (const raw of block.body.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    commands.push((current + line).trim());
    current = '';
  }
  return commands;
}
