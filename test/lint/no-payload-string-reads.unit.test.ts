import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionSources, ROOT } from './source-files.ts';

/** `payload['agent']`, `payload?.["x"]`, `` payload[`x`] ``: a field read by its name as a string. */
const STRING_KEY_READ = /\bpayload\s*(\?\.)?\s*\[\s*['"`]/;

/** The lines of `source` that read a payload by a string key. */
function stringKeyReads(source: string): string[] {
  return source.split('\n').filter((line) => STRING_KEY_READ.test(line));
}

/**
 * Payloads are read through the server's event definitions (ADR 0400): a stored event is read into the typed
 * union (`readSessionEvent`, `SESSION_EVENTS.x.read`) and its fields are properties of a parsed payload. A
 * read by string key is a guess at a shape the contract already states.
 */
describe('no payload read by string key in src/ or web/src/', () => {
  it('recognises the reads it refuses, and not the typed ones', () => {
    expect(stringKeyReads("const agent = payload['agent'];")).toHaveLength(1);
    expect(stringKeyReads('text(payload?.["text"])')).toHaveLength(1);
    expect(stringKeyReads('const { agent } = event.payload;')).toEqual([]);
    expect(stringKeyReads('event.payload.tool_calls')).toEqual([]);
  });

  const sources = productionSources();

  it('finds the sources it guards, the fold of the web among them', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(sources).toContain('web/src/session/fold/apply-conversation.ts');
  });

  it.each(sources)('%s reads no payload by string key', (path) => {
    expect(stringKeyReads(readFileSync(join(ROOT, path), 'utf8'))).toEqual([]);
  });
});
