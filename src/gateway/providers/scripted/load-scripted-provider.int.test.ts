import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import { loadScriptedProvider } from './load-scripted-provider.ts';

const directory = mkdtempSync(join(tmpdir(), 'forja-scripted-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeScript(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

describe('loadScriptedProvider', () => {
  it('plays a script file, named after its path', async () => {
    const path = writeScript(
      'ok.json',
      JSON.stringify({ turns: [{ agent: 'criativo', text: 'From a file.' }] }),
    );
    const provider = loadScriptedProvider(path);
    expect([provider.name, provider.model]).toEqual(['scripted', path]);
    const { parts } = await collectStream(
      provider.stream(
        {
          agent: 'criativo',
          system: '',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [],
          maxOutputTokens: 10,
        },
        { signal: new AbortController().signal },
      ),
    );
    expect(joinText(parts)).toBe('From a file.');
  });

  it('names the file and the JSON path of a bad script', () => {
    const path = writeScript(
      'bad.json',
      JSON.stringify({ turns: [{ agent: 'po', tool_calls: [{ arguments: {} }] }] }),
    );
    expect(() => loadScriptedProvider(path)).toThrow(ScriptInvalidError);
    expect(() => loadScriptedProvider(path)).toThrow(
      `invalid scripted model (${path}): turns[0].tool_calls[0].name:`,
    );
  });

  it('reports a missing file as a bad script', () => {
    expect(() => loadScriptedProvider(join(directory, 'missing.json'))).toThrow(
      /\(file\): cannot be read: ENOENT/,
    );
  });
});
