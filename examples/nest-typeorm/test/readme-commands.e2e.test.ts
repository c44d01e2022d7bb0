/**
 * The example README's commands, run as printed with the machine's curl against the example app (on a free port in
 * place of 3000): every REST, realtime and GraphQL line a reader copies answers, and none with a server error. A
 * stream (`curl -N`) runs beside the writes that follow it and must print their events.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { docBlocks, RUN_SECTIONS, shellCommands } from '../../../test/support/doc-blocks';
import { serveApiDocs } from '../src/api-docs';
import { listenExample } from './example-app';

const README = join(__dirname, '..', 'README.md');
const SECTIONS = RUN_SECTIONS.filter((entry) => entry.file === 'examples/nest-typeorm/README.md').map(
  (entry) => entry.section,
);

interface Ran {
  readonly code: number | null;
  readonly output: string;
  readonly status?: number;
}

/** What the README's `export NAME=...` lines set, for the lines after them (each runs in a shell of its own). */
const exported: Record<string, string> = {};

/** Runs one shell command line; `-w` adds the HTTP status on a last line of its own. */
function sh(command: string, options: { timeoutMs?: number; status?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const line = options.status ? `${command} -s -w '\\n%{http_code}'` : command;
    const child = spawn('bash', ['-c', line], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...exported },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGTERM'), options.timeoutMs) : undefined;
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (!options.status) return resolve({ code, output });
      const lines = output.trimEnd().split('\n');
      const status = Number(lines.pop());
      resolve({ code, output: lines.join('\n'), status });
    });
  });
}

describe("the example README's commands, run as printed", () => {
  let app: INestApplication;
  let origin: string;

  beforeAll(async () => {
    ({ app, base: origin } = await listenExample(serveApiDocs));
  });

  afterAll(async () => {
    await app?.close();
  });

  /** A README line with the app's address in place of localhost:3000. */
  const here = (command: string) => command.replace(/(https?:\/\/)?localhost:3000/g, origin);

  it.each(SECTIONS)(
    'runs every command of "%s" with an answer and no server error',
    async (section) => {
      const blocks = docBlocks(README).filter((block) => block.section === section);
      const failures: string[] = [];
      let previous = '';
      const streams: { printed: string; ran: Promise<Ran> }[] = [];
      let ran = 0;
      for (const block of blocks) {
        for (const printed of shellCommands(block)) {
          let command = here(printed);
          // The next page's cursor, which the README leaves for the reader to copy from the page before.
          if (command.includes('<meta.nextCursor')) {
            const cursor = (JSON.parse(previous) as { meta: { nextCursor: string } }).meta.nextCursor;
            command = command.replace(/<meta\.nextCursor[^>]*>/, encodeURIComponent(cursor));
          }
          const assignment = /^export (\w+)=(.*)$/.exec(command);
          if (assignment) {
            // A variable the next lines read, as a reader's terminal would keep it.
            const result = await sh(`${command} && printf %s "$${assignment[1]}"`);
            if (result.code !== 0 || result.output === '')
              failures.push(`${printed} -> exit ${result.code}: ${result.output}`);
            exported[assignment[1]!] = result.output;
            ran++;
            continue;
          }
          if (command.startsWith('open ')) {
            // A browser's job: the page must be there.
            const response = await fetch(command.slice('open '.length).trim());
            if (response.status !== 200) failures.push(`${printed} -> ${response.status}`);
            ran++;
            continue;
          }
          if (/\bcurl\b.*\s-N\b/.test(command)) {
            // A stream runs beside the writes that follow it, as in a second terminal.
            streams.push({ printed, ran: sh(command.replace(/\s*&\s*$/, ''), { timeoutMs: 2_000 }) });
            await new Promise((resolve) => setTimeout(resolve, 300));
            ran++;
            continue;
          }
          const result = await sh(command, { status: true });
          ran++;
          previous = result.output;
          if (result.code !== 0 || !result.status || result.status >= 500) {
            failures.push(`${printed} -> exit ${result.code}, status ${result.status}: ${result.output.slice(0, 300)}`);
          }
          if (/"extensions":\{"code":"SVC_(INTERNAL|PERSISTENCE_ERROR)"/.test(result.output)) {
            failures.push(`${printed} -> ${result.output.slice(0, 300)}`);
          }
        }
      }
      for (const [index, stream] of streams.entries()) {
        const { output } = await stream.ran;
        if (/curl: \(\d+\)/.test(output)) failures.push(`${stream.printed} -> ${output.slice(0, 300)}`);
        // The first stream was open while the writes after it ran: their events reached it.
        if (index === 0 && !/event: created/.test(output)) failures.push(`${stream.printed} printed no created event`);
      }
      expect(failures).toEqual([]);
      expect(ran).toBeGreaterThan(0);
    },
    60_000,
  );
});
