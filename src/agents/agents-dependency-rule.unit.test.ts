import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const AGENTS_DIRECTORY = new URL('.', import.meta.url).pathname;
const CONVERSATION_DIRECTORY = new URL('../conversation/', import.meta.url).pathname;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    // Test support (`testing/`) starts a whole Forja with the scripted provider: it is not agent code.
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.includes('.test.') ? [path] : [];
  });
}

const importsOf = (path: string) =>
  [
    ...readFileSync(path, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm),
  ].map((match) => match[1]!);

/**
 * Only the model gateway talks to a model provider (docs/records.md, the principles). Agent code and the conversation use cases
 * receive the gateway interface; they never import a provider adapter, the providers' folder or an SDK.
 */
describe('dependency rule: agents reach models only through the gateway', () => {
  const files = [...sourceFiles(AGENTS_DIRECTORY), ...sourceFiles(CONVERSATION_DIRECTORY)];

  it('finds the agent sources it guards', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((path) => [relative(AGENTS_DIRECTORY, path), path]))(
    '%s imports no provider',
    (_name, path) => {
      const offending = importsOf(path).filter((specifier) =>
        /gateway\/providers|^openai$|^@anthropic-ai\/|^@ai-sdk\/|^ai$/.test(specifier),
      );
      expect(offending).toEqual([]);
    },
  );
});
