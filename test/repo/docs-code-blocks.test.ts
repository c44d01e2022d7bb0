/**
 * Every command and code block a reader may copy, in README.md, the guides and the example's README, either runs in a
 * test or says at its first line that it is a fragment (`// Fragment: ...`, `# Fragment: ...`), so nothing shown as
 * runnable has stopped working unnoticed.
 */
import { join } from 'node:path';
import { docBlocks, isMarkedFragment, RUN_SECTIONS, type DocBlock } from '../support/doc-blocks';
import { filesUnder, REPO_ROOT } from './repo-files';

const FILES = [
  'README.md',
  'examples/nest-typeorm/README.md',
  ...filesUnder(join(REPO_ROOT, 'docs', 'guide'), '.md').map((file) => file.slice(REPO_ROOT.length + 1)),
];

function runs(file: string, block: DocBlock): boolean {
  return RUN_SECTIONS.some((entry) => entry.file === file && entry.section === block.section);
}

describe('code blocks in the docs', () => {
  it.each(FILES)('%s: each block runs in a test or is marked as a fragment', (file) => {
    const unaccounted = docBlocks(join(REPO_ROOT, file))
      .filter((block) => !runs(file, block) && !isMarkedFragment(block))
      .map((block) => `${file}:${block.line} (${block.section}) ${block.body.split('\n')[0]}`);
    expect(unaccounted).toEqual([]);
  });

  it('names only sections that exist, each with at least one block', () => {
    for (const entry of RUN_SECTIONS) {
      const blocks = docBlocks(join(REPO_ROOT, entry.file)).filter((block) => block.section === entry.section);
      expect({ ...entry, blocks: blocks.length > 0 }).toEqual({ ...entry, blocks: true });
    }
  });
});
