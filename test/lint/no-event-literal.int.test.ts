import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');

/** Lints `files` (path → source) in a scratch tree with only Forja's event rule; returns the flagged paths. */
async function flagged(dir: string, files: Record<string, string>): Promise<string[]> {
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), source);
  }
  await writeFile(
    join(dir, 'biome.json'),
    JSON.stringify({
      plugins: [join(root, 'lint/no-event-literal.grit')],
      linter: { rules: { recommended: false } },
      formatter: { enabled: false },
    }),
  );
  const output = await run(biome, ['lint', '--colors=off', '--max-diagnostics=100', '.'], {
    cwd: dir,
  }).then(
    ({ stdout, stderr }) => stdout + stderr,
    (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
  );
  return [...output.matchAll(/^(\S+\.ts):\d+:\d+ plugin/gm)].map((match) => match[1]!).sort();
}

describe('the untyped-event rule (lint/no-event-literal.grit, run by npm run lint)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forja-event-rule-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses an event written as a literal outside the domain, in any spelling, and nothing else', async () => {
    const literal = `export const a = [{ type: 'chat.message', actor: 'user', payload: { v: 1, text: 'x' } }];\n`;
    const shorthand = `export const b = (actor: string, payload: unknown) => ({ type: K.x, actor, payload });\n`;
    const notAnEvent = [
      `export const c = { type: 'agent.delta', text: 'a live delta has no actor or payload' };`,
      `export const d = (row: { type: string; actor: string; payload: unknown }) => ({ type: row.type, actor: row.actor, payload: row.payload });`,
      `export const e = { type: z.string(), actor: z.string(), payload: z.unknown() };`,
      `export const f = SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'typed' });`,
      `export const g = { tool: { type: 'x.y', nested: { actor: 'a' } }, payload: 1 };`,
      '',
    ].join('\n');
    expect(
      await flagged(dir, {
        'src/conversation/literal.ts': literal,
        'src/agents/shorthand.ts': shorthand,
        'src/conversation/not-an-event.ts': notAnEvent,
        'src/domain/conversation/decide-x.ts': literal,
        'src/conversation/x.test.ts': literal,
        'src/conversation/testing/fixture.ts': literal,
      }),
    ).toEqual(['src/agents/shorthand.ts', 'src/conversation/literal.ts']);
  });
});
