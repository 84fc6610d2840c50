import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { listen } from '../http/listen.ts';
import { workspaceDirectory } from '../workspace/workspace-layout.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson } from '../testing/forja-harness.ts';
import { playUpToTheDevs } from './testing/play-up-to-the-devs.ts';
import { UP_TO_ARQUITETO } from './testing/production-line-script.ts';
import { startLine } from './testing/start-line.ts';

const run = promisify(execFile);
const GIT_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};
const git = async (cwd: string, ...args: string[]) =>
  (
    await run('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
      cwd,
      env: GIT_ENV,
    })
  ).stdout;

const CLIMA_CODE = 'export function clima() {\n  return "sol";\n}\n';

/** A repository not made by Forja: two commits, an AGENTS.md, a package.json and code under src/clima. */
async function makeSource(directory: string): Promise<void> {
  await mkdir(join(directory, 'src', 'clima'), { recursive: true });
  await git(directory, 'init', '--quiet', '--initial-branch=trunk');
  await writeFile(join(directory, 'AGENTS.md'), '# Estação\nRode npm test.\n');
  await writeFile(join(directory, 'package.json'), '{"name":"estacao-antiga","version":"1.0.0"}\n');
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'antigo: projeto');
  await writeFile(join(directory, 'src', 'clima', 'index.js'), CLIMA_CODE);
  await git(directory, 'add', '.');
  await git(directory, 'commit', '--quiet', '-m', 'antigo: clima');
}

const module = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  stack: 'JavaScript',
  responsibility: `A parte ${name}`,
  dependsOn: [],
  directory: `src/${name}`,
  check: `test -f src/${name}/index.js`,
  ...extra,
});
const writes = (name: string, path: string, content: string, expect?: { system: string[] }) => ({
  agent: `dev:${name}`,
  ...(expect === undefined ? {} : { expect }),
  tool_calls: [{ name: 'write_file', arguments: { path, content } }],
});
const finishes = (name: string, task: string) => ({
  agent: `dev:${name}`,
  tool_calls: [{ name: 'finish_task', arguments: { task_id: task, resumo: `${task} pronta` } }],
});

/** A decision of session 1's, which session 2's Criativo, PO and Arquiteto read. */
const FIRST_DECISION = {
  question: 'O clima guarda a previsão junto do código antigo?',
  answer: 'Sim: em src/clima/previsao.js',
  reason: 'O clima já mora em src/clima',
};
const FIRST_DECISION_LINE = `- ${FIRST_DECISION.question} → ${FIRST_DECISION.answer} (decidido por: arquiteto)`;
const CATALOGO_CODE = 'export const paes = ["francês"];\n';

/**
 * Session 1's Arquiteto: sees the imported tree, reads a file of it, maps clima (existing) and adds catalogo,
 * records a decision, and gives each a task.
 */
const FIRST_ARQUITETO = [
  {
    agent: 'arquiteto',
    expect: {
      system: [
        '## O repositório hoje (main,',
        '- src/clima/index.js',
        '"name":"estacao-antiga"',
        'Rode npm test.',
        'mapeie o código que existe para módulos',
      ],
      tools: ['read_file', 'search_workspace', 'declare_module_map'],
    },
    tool_calls: [{ name: 'read_file', arguments: { path: 'src/clima/index.js' } }],
  },
  {
    agent: 'arquiteto',
    expect: { messages: ['read_file(', 'return "sol"'] },
    tool_calls: [
      {
        name: 'declare_module_map',
        arguments: { version: 1, modules: [module('clima'), module('catalogo')] },
      },
    ],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'record_decision', arguments: FIRST_DECISION }] },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'assign_tasks_to_modules',
        arguments: {
          assignments: [
            { task_id: 'AT-001', module: 'catalogo' },
            { task_id: 'AT-002', module: 'clima' },
          ],
        },
      },
    ],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
  { agent: 'arquiteto', text: 'O clima já existe; catalogo é novo.' },
];
const FIRST_DEVS = [
  writes('catalogo', 'src/catalogo/index.js', CATALOGO_CODE),
  finishes('catalogo', 'AT-001'),
  { agent: 'dev:catalogo', text: 'Feito.' },
  writes('clima', 'src/clima/previsao.js', 'export const previsao = "sol";\n'),
  finishes('clima', 'AT-002'),
  { agent: 'dev:clima', text: 'Feito.' },
];

/** What a later session's Criativo, PO and Arquiteto read of session 1: its brief and its decision. */
const EARLIER_SESSION = ['### Brief anterior: Padaria do amanhecer', FIRST_DECISION_LINE];

/** Session 2's Criativo: the same conversation, but its first call sees what the project already has. */
const SECOND_CRIATIVO = UP_TO_ARQUITETO.filter((turn) => turn.agent === 'criativo').map(
  (turn, index) =>
    index === 0
      ? {
          ...turn,
          expect: {
            ...turn.expect,
            system: [
              ...(turn.expect?.system ?? []),
              '## O que o projeto já tem',
              'AT-002 (HS-002) Criar pedido — módulo: clima — feita (já em main)',
              '- src/catalogo/index.js',
              ...EARLIER_SESSION,
            ],
          },
        }
      : turn,
);

/**
 * Session 2: the PO continues the backlog, the Arquiteto keeps clima and catalogo, adds pedidos and gives
 * clima a task again.
 */
const SECOND_PO = [
  {
    agent: 'po',
    expect: {
      system: [
        'AT-001 (HS-001) Listar pães — módulo: catalogo — feita (já em main)',
        'Feitas: AT-001, AT-002.',
        'a partir de EP-002, HS-003 e AT-003',
        '- src/catalogo/index.js',
        ...EARLIER_SESSION,
      ],
    },
    tool_calls: [
      {
        name: 'declare_backlog',
        arguments: {
          tasks: [
            {
              id: 'AT-001',
              story_id: 'HS-001',
              title: 'Refazer',
              description: 'Não deveria',
              acceptance_criteria: ['nada'],
            },
          ],
        },
      },
    ],
  },
  {
    agent: 'po',
    expect: {
      messages: ['AT-001 is done (merged into main by an earlier session)', 'AT-003 is free'],
    },
    tool_calls: [
      {
        name: 'declare_backlog',
        arguments: {
          stories: [
            {
              id: 'HS-003',
              epic_id: 'EP-001',
              title: 'Pedir',
              description: 'A pessoa pede pão',
              acceptance_criteria: ['o pedido guarda o pão'],
            },
          ],
          tasks: [
            {
              id: 'AT-003',
              story_id: 'HS-003',
              title: 'Criar pedido',
              description: 'Função que cria o pedido',
              acceptance_criteria: ['usa o pão do catálogo'],
            },
            {
              id: 'AT-004',
              story_id: 'HS-003',
              title: 'Clima do pedido',
              description: 'O clima diz se o pão do pedido sai com chuva',
              acceptance_criteria: ['conhece os pães do catálogo'],
            },
          ],
        },
      },
    ],
  },
  { agent: 'po', tool_calls: [{ name: 'hand_off_to_arquiteto', arguments: {} }] },
  { agent: 'po', text: 'Backlog continuado.' },
];
const SECOND_ARQUITETO = [
  {
    agent: 'arquiteto',
    expect: {
      system: [
        '## Mapa de módulos (versão 1)',
        '- src/catalogo/index.js',
        'Mantenha os módulos do mapa atual',
        'Tarefas sem módulo: AT-003, AT-004.',
        ...EARLIER_SESSION,
      ],
    },
    tool_calls: [
      {
        name: 'declare_module_map',
        arguments: {
          version: 2,
          modules: [
            module('clima'),
            module('catalogo'),
            module('pedidos', { dependsOn: ['catalogo'] }),
          ],
        },
      },
    ],
  },
  {
    agent: 'arquiteto',
    tool_calls: [
      {
        name: 'assign_tasks_to_modules',
        arguments: {
          assignments: [
            { task_id: 'AT-003', module: 'pedidos' },
            { task_id: 'AT-004', module: 'clima' },
          ],
        },
      },
    ],
  },
  { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
  { agent: 'arquiteto', text: 'Pedidos é novo e clima muda.' },
];
/** Session 2's devs: clima's worktree is session 1's, and got dev (with catalogo's code) before its turn. */
const SECOND_DEVS = [
  writes('pedidos', 'src/pedidos/index.js', 'import { paes } from "../catalogo/index.js";\n'),
  finishes('pedidos', 'AT-003'),
  { agent: 'dev:pedidos', text: 'Feito.' },
  {
    agent: 'dev:clima',
    expect: {
      system: [
        'Seu worktree vem de uma sessão anterior: antes deste turno, dev (com o main de agora) foi mesclado no seu branch dev-clima',
      ],
    },
    tool_calls: [{ name: 'read_file', arguments: { path: 'src/catalogo/index.js' } }],
  },
  {
    agent: 'dev:clima',
    expect: { messages: ['read_file(', 'paes = ["francês"]'] },
    tool_calls: [
      {
        name: 'write_file',
        arguments: { path: 'src/clima/pedido.js', content: 'import "../catalogo/index.js";\n' },
      },
    ],
  },
  finishes('clima', 'AT-004'),
  { agent: 'dev:clima', text: 'Feito.' },
];

const call = async (forja: Forja, method: string, path: string, body?: unknown) => {
  const answer = await requestJson(forja, method, path, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};

/** Accepts the session's dev handoffs, waits for the line, merges it into main; the dev agents offered. */
async function finishLine(forja: Forja, sessionId: string): Promise<string[]> {
  const handoffs = (await call(forja, 'GET', `/api/sessions/${sessionId}/handoffs`))
    .handoffs as Array<{ to_agent: string }>;
  await call(forja, 'POST', `/api/sessions/${sessionId}/dev-handoffs/accept`);
  await forja.conversation.idle(sessionId);
  for (let tries = 0; tries < 300; tries += 1) {
    const line = await call(forja, 'GET', `/api/sessions/${sessionId}/line`);
    if (line.completed) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await forja.conversation.idle(sessionId);
  }
  await call(forja, 'POST', `/api/sessions/${sessionId}/line/merge-into-main`);
  return handoffs.map((handoff) => handoff.to_agent).filter((agent) => agent.startsWith('dev:'));
}

describe.each(testDatabaseEngines())(
  'a repository brought in and evolved over two sessions, on $name',
  (engine) => {
    let close: (() => Promise<unknown>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it('maps the imported code, adds a module, merges into main, is cloned over HTTP, and a second session adds another', {
      timeout: 300_000,
    }, async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'forja-brownfield-'));
      const line = await startLine(engine, {
        turns: [
          ...UP_TO_ARQUITETO,
          ...FIRST_ARQUITETO,
          ...FIRST_DEVS,
          ...SECOND_CRIATIVO,
          ...SECOND_PO,
          ...SECOND_ARQUITETO,
          ...SECOND_DEVS,
        ],
      });
      const server = await listen(line.forja.app.fetch, { host: '127.0.0.1', port: 0 });
      close = async () => {
        await server.close();
        await line.close();
        await rm(scratch, { recursive: true, force: true });
      };
      const { forja } = line;
      await makeSource(join(scratch, 'source'));
      const project = await call(forja, 'POST', '/api/projects', {
        name: 'Estação',
        source: { path: join(scratch, 'source') },
      });

      // Session 1: the Arquiteto reads the imported tree (its expect); catalogo and clima get a dev each.
      const first = await playUpToTheDevs(forja, project.id);
      expect((await finishLine(forja, first.sessionId)).sort()).toEqual([
        'dev:catalogo',
        'dev:clima',
      ]);
      // clima's branch was made before catalogo's code reached dev: it lacks it when session 1 ends.
      const workspace = workspaceDirectory(line.dataDirectory, project.id);
      const climaHas = async (path: string) =>
        (await git(workspace, 'ls-tree', '--name-only', 'dev-clima', '--', path)).trim() === path;
      expect(await climaHas('src/catalogo/index.js')).toBe(false);
      const clone = join(scratch, 'clone');
      await git(scratch, 'clone', '--quiet', `${server.url}/git/${project.id}.git`, clone);
      const history = await git(clone, 'log', '--format=%s', 'main');
      expect(history).toContain('antigo: clima\nantigo: projeto\n');
      expect(await readFile(join(clone, 'src/clima/index.js'), 'utf8')).toBe(CLIMA_CODE);
      expect(await readFile(join(clone, 'package.json'), 'utf8')).toContain('estacao-antiga');
      expect(await readFile(join(clone, 'AGENTS.md'), 'utf8')).toContain('Rode npm test.');
      expect(await readFile(join(clone, 'src/catalogo/index.js'), 'utf8')).toContain('francês');

      // Session 2: the backlog continues (a done id is refused), pedidos is new and clima changes (catalogo,
      // done, gets no dev), main again. clima's worktree is session 1's: dev, holding main, reached it first.
      const second = await playUpToTheDevs(forja, project.id);
      expect((await finishLine(forja, second.sessionId)).sort()).toEqual([
        'dev:clima',
        'dev:pedidos',
      ]);
      expect(await climaHas('src/catalogo/index.js')).toBe(true);
      expect(await git(workspace, 'log', '--format=%s', 'dev-clima')).toContain(
        "Merge dev into dev-clima: a new session's work starts from main",
      );
      const caughtUp = (await forja.eventLog.read(second.sessionId, { limit: 10_000 })).filter(
        (event) => event.type === 'module.caught_up',
      );
      expect(caughtUp.map((event) => event.payload)).toEqual([
        { v: 1, module: 'clima', commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
      ]);
      await git(clone, 'pull', '--quiet', '--no-rebase', 'origin', 'main');
      expect(await readFile(join(clone, 'src/pedidos/index.js'), 'utf8')).toContain('catalogo');
      expect(existsSync(join(clone, 'src/clima/previsao.js'))).toBe(true);
      expect(existsSync(join(clone, 'src/clima/pedido.js'))).toBe(true);
      expect(await git(clone, 'log', '--format=%s', 'main')).toContain(
        'antigo: clima\nantigo: projeto\n',
      );
      const merges = (await git(clone, 'log', '--merges', '--first-parent', '--format=%H', 'main'))
        .trim()
        .split('\n');
      expect(merges.length).toBeGreaterThanOrEqual(2);
      // The first session's tasks stay done, the second's only took AT-003 and AT-004.
      const backlog = await call(forja, 'GET', `/api/projects/${project.id}/backlog`);
      expect(backlog.tasks.map((task: { id: string }) => task.id).sort()).toEqual([
        'AT-001',
        'AT-002',
        'AT-003',
        'AT-004',
      ]);
      expect(backlog.tasks.find((task: { id: string }) => task.id === 'AT-001').title).toBe(
        'Listar pães',
      );
      for (const sessionId of [first.sessionId, second.sessionId]) {
        const events = await forja.eventLog.read(sessionId, { limit: 10_000 });
        expect(events.map((event) => event.type)).not.toContain('turn.failed');
        expect(events.filter((event) => event.type === 'line.merged_into_main')).toHaveLength(1);
      }
      line.provider.assertAllTurnsConsumed();
    });
  },
);
