import { parallelModules } from './parallel-line-script.ts';
import { UP_TO_ARQUITETO } from './production-line-script.ts';

type ScriptTurn = (typeof UP_TO_ARQUITETO)[number] & { delay_ms?: number };

/**
 * A scripted line of `modules` independent modules whose devs do real work: each module has a task (`AT-001`
 * for modulo1, …) and a check (`test -f src/<module>.ts`), and each dev's kickoff turn is four model calls of
 * `devDelayMs` — it reads the contracts, writes `src/<module>.ts`, calls `finish_task` (the check runs in the
 * sandbox, the worktree is committed) and answers — after which the line merges the module into `dev`. Plain
 * data in the scripted model's format (the line-overhead benchmark and the process-count test play it).
 */
export function workingLineScript(options: { modules: number; devDelayMs: number }): {
  turns: ScriptTurn[];
} {
  const names = parallelModules(options.modules);
  const taskOf = (index: number) => `AT-${String(index + 1).padStart(3, '0')}`;
  const backlog = {
    epics: [{ id: 'EP-001', title: 'Padaria', description: 'O produto inteiro' }],
    stories: [
      {
        id: 'HS-001',
        epic_id: 'EP-001',
        title: 'Cada parte',
        description: 'Cada módulo faz a sua parte',
        acceptance_criteria: ['cada módulo existe'],
      },
    ],
    tasks: names.map((name, index) => ({
      id: taskOf(index),
      story_id: 'HS-001',
      title: `Escrever ${name}`,
      description: `O arquivo de ${name}`,
      acceptance_criteria: [`src/${name}.ts existe`],
    })),
  };
  const upToArquiteto = UP_TO_ARQUITETO.map((turn) =>
    turn.tool_calls?.[0]?.name === 'declare_backlog'
      ? { ...turn, tool_calls: [{ name: 'declare_backlog', arguments: backlog }] }
      : turn,
  );
  const map = {
    version: 1,
    modules: names.map((name) => ({
      name,
      stack: 'TypeScript',
      responsibility: `A parte ${name} do produto`,
      dependsOn: [],
      check: `test -f src/${name}.ts`,
    })),
  };
  const assignments = names.map((name, index) => ({ task_id: taskOf(index), module: name }));
  const arquiteto: ScriptTurn[] = [
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: map }] },
    {
      agent: 'arquiteto',
      tool_calls: [{ name: 'assign_tasks_to_modules', arguments: { assignments } }],
    },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Mapa declarado: aceite os handoffs dos devs.' },
  ];
  const devs = names.flatMap((name, index): ScriptTurn[] =>
    (
      [
        { name: 'listar_contratos_de_modulos', arguments: {} },
        {
          name: 'write_file',
          arguments: { path: `src/${name}.ts`, content: `export const ${name} = ${index + 1};\n` },
        },
        { name: 'finish_task', arguments: { task_id: taskOf(index), resumo: `${name} escrito` } },
        null,
      ] as const
    ).map((call) => ({
      agent: `dev:${name}`,
      ...(call === null ? { text: `${name} pronto.` } : { tool_calls: [call] }),
      delay_ms: options.devDelayMs,
    })),
  );
  return { turns: [...upToArquiteto, ...arquiteto, ...devs] };
}
