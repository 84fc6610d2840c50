import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { currentArchitecture } from '../../domain/architecture/index.ts';
import { architectureDocFile, architectureDocFiles } from './architecture-doc-files.ts';

const MAP = {
  version: 3,
  modules: [
    { name: 'catalogo', stack: 'TS', responsibility: 'Pães | preços', dependsOn: [] },
    { name: 'pedidos', stack: 'TS', responsibility: 'Pedidos', dependsOn: ['catalogo'] },
  ],
};

describe('architecture docs', () => {
  it('draws the map as a picture and a table, with the build order', () => {
    const { path, content } = architectureDocFile('module_map', MAP);
    expect(path).toBe('docs/module-map.md');
    expect(content).toContain('# Module map — version 3');
    expect(content).toContain(
      '```mermaid\ngraph LR\n  m0["catalogo"]\n  m1["pedidos"]\n  m1 --> m0\n```',
    );
    expect(content).toContain('| catalogo | TS | Pães \\| preços | — |');
    expect(content).toContain(
      'Build order (each module after what it depends on): catalogo → pedidos',
    );
  });

  it('writes what each module exposes, signatures as code', () => {
    const { content } = architectureDocFile('module_contracts', {
      version: 2,
      contratos: [
        {
          modulo: 'catalogo',
          expoe: [{ tipo: 'funcao', assinatura: 'listar(`x`)', descricao: 'Lista' }],
        },
      ],
    });
    expect(content).toContain('# Module contracts — version 2');
    expect(content).toContain('- **funcao** `` listar(`x`) `` — Lista');
  });

  it('writes one file per artifact that has a current version', () => {
    const events = buildSessionEvents('s1', [
      { type: 'artifact.module_map', actor: 'arquiteto', payload: { v: 1, data: MAP } },
      {
        type: 'artifact.project_image',
        actor: 'arquiteto',
        payload: { v: 1, data: { version: 1, summary: 'Uma padaria.' } },
      },
    ]);
    expect(architectureDocFiles(currentArchitecture(events)).map((file) => file.path)).toEqual([
      'docs/project-image.md',
      'docs/module-map.md',
    ]);
  });
});
