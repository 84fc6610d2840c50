import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from './agent-tool.ts';
import { checkedByTheTool, defineTool } from './agent-tool.ts';
import { toToolDefinitions } from './tool-definitions.ts';

// The tools under test read nothing of their context.
const context = {} as ToolContext;

describe('defineTool', () => {
  const seen: Array<{ path: string; times: number }> = [];
  const tool = defineTool({
    name: 'fetch_page',
    description: 'test',
    mode: 'proposed',
    parameters: z.strictObject({ path: z.string().trim().min(1), times: z.number().default(1) }),
    assessRisk: ({ path }) => ({ risky: path === '/', reasons: [] }),
    run: async (args) => {
      seen.push(args);
      return { ok: true, result: `${args.path} ×${args.times}` };
    },
  });

  it('gives run the arguments its schema outputs (trimmed, defaults filled)', async () => {
    expect(await tool.run({ path: '  /a  ' }, context)).toEqual({ ok: true, result: '/a ×1' });
    expect(seen.at(-1)).toEqual({ path: '/a', times: 1 });
  });

  it('refuses arguments its schema refuses, naming the field, without running', async () => {
    const before = seen.length;
    const outcome = await tool.run({ path: '', extra: 1 }, context);
    expect(outcome.ok).toBe(false);
    expect(outcome.result).toContain('path:');
    expect(outcome.result).toContain('"extra"');
    expect(seen.length).toBe(before);
  });

  it('assesses only arguments of the tool, and says nothing of others', () => {
    expect(tool.assessRisk?.({ path: '/' })).toEqual({ risky: true, reasons: [] });
    expect(tool.assessRisk?.({ nothing: true })).toBeUndefined();
  });

  it('lets a tool that validates by itself see every value, while the model is shown the schema', async () => {
    const raw: unknown[] = [];
    const checking = defineTool({
      name: 'declare',
      description: 'test',
      mode: 'direct',
      parameters: checkedByTheTool(z.strictObject({ items: z.array(z.string()).min(1) })),
      run: async (args) => (raw.push(args), { ok: true, result: 'ok' }),
    });
    await checking.run({ items: [], other: 2 }, context);
    expect(raw).toEqual([{ items: [], other: 2 }]);
    expect(toToolDefinitions([checking])[0]?.parameters).toMatchObject({
      type: 'object',
      required: ['items'],
    });
  });
});

describe('the tools of src/agents', () => {
  it('never cast their arguments: defineTool types them by the schema', () => {
    const root = join(import.meta.dirname, '..');
    const casts = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, index) => (/\bargs as\b/.test(line) ? [`${file}:${index + 1}`] : [])),
      );
    expect(casts).toEqual([]);
  });
});
