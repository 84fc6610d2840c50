import { describe, expect, it } from 'vitest';
import { renderSandbox } from './render-sandbox.ts';

describe('where check and terminal run, as the Arquiteto and the devs read it', () => {
  it('names the directory, the shell, the limit, the versions found and the tools missing, no network and no git', () => {
    const text = renderSandbox(
      { versions: { node: 'v20.20.2', npm: '10.8.2', python3: null }, unknown: null },
      { timeoutMs: 90_000 },
    );
    expect(text).toContain('/bin/sh -c na raiz do worktree do módulo');
    expect(text).toContain('cd packages/<módulo> && node --test');
    expect(text).toContain('Até 90 s.');
    expect(text).toContain(
      'Versões no sandbox: node v20.20.2, npm 10.8.2; não instalados: python3.',
    );
    expect(text).toContain('Sem rede');
    expect(text).toContain('git não está disponível dentro do sandbox');
  });

  it('says the versions are unknown, and why in short, when nothing could run', () => {
    const text = renderSandbox(
      {
        versions: { node: null, npm: null, python3: null },
        unknown: `terminal refused: ${'x'.repeat(500)}`,
      },
      { timeoutMs: 120_000 },
    );
    expect(text).toMatch(/Versões: não detectadas \(terminal refused: x{182}\)\./);
  });
});
