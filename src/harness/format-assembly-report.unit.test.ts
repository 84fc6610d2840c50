import { describe, expect, it } from 'vitest';
import { assemblePrompt } from './assemble-prompt.ts';
import { formatAssemblyReport } from './format-assembly-report.ts';

describe('formatAssemblyReport', () => {
  const report = assemblePrompt(
    {
      agent: 'dev',
      identidade: 'Você é um agente dev.',
      instruction_files: [
        { id: 'AGENTS.md', text: 'r'.repeat(400) },
        { id: 'mid/AGENTS.md', text: 'm'.repeat(400) },
        { id: 'pkg/AGENTS.md', text: 'p' },
      ],
      contexto_projeto: 'c'.repeat(400),
    },
    { budgets: { instruction_files: 30, contexto_projeto: 20 } },
  );
  const text = formatAssemblyReport(report, {
    tokenizerName: 'estimate',
    skipped: [{ path: 'bad/AGENTS.md', reason: 'not_utf8' }],
  });

  it('shows every layer in prompt order with strategy, budget, tokens and status', () => {
    const rows = text
      .split('\n')
      .filter((line) =>
        /^(identidade|instruction_files|contexto_projeto|regras_negocio|estado_tarefa) /.test(line),
      );
    expect(rows.map((line) => line.split(/\s+/).slice(0, 5))).toEqual([
      ['identidade', 'keep_or_drop', '256', String(report.layers[0]?.tokens), 'kept'],
      [
        'instruction_files',
        'drop_whole_units',
        '30',
        String(report.layers[1]?.tokens),
        'truncated',
      ],
      ['contexto_projeto', 'truncate_tail', '20', '20', 'truncated'],
      ['regras_negocio', 'drop_whole_units', '4096', '0', 'empty'],
      ['estado_tarefa', 'truncate_tail', '2048', '0', 'empty'],
    ]);
  });

  it('names what was dropped or cut, the skipped sources, and ends with the prompt', () => {
    expect(text).toContain('truncated (dropped: AGENTS.md; tail cut: mid/AGENTS.md)');
    expect(text).toMatch(/ {2}AGENTS\.md\s+104 {2}dropped/);
    expect(text).toMatch(/ {2}mid\/AGENTS\.md\s+\d+ {2}tail cut/);
    expect(text).toContain('tail cut, ends with [… truncado …]');
    expect(text).toContain('bad/AGENTS.md: not_utf8');
    expect(text).toContain('total tokens: ');
    expect(text.endsWith(`${report.prompt}\n----- end of prompt -----\n`)).toBe(true);
  });
});
