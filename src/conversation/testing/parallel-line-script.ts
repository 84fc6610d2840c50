import { UP_TO_ARQUITETO } from './production-line-script.ts';

/**
 * A scripted line whose dev phase is wide: the Arquiteto maps `modules` independent modules and hands them
 * off, and each dev's kickoff turn takes `devDelayMs` before its first word and `devPaceMs` between words —
 * so lanes that run side by side overlap in time, and lanes that run one after another do not. Plain data
 * in the scripted model's format (the lanes test and the line-parallelism benchmark play it).
 */
type ScriptTurn = {
  agent: string;
  text?: string;
  tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  delay_ms?: number;
  pace_ms?: number;
};

export const parallelModules = (modules: number): string[] =>
  Array.from({ length: modules }, (_, index) => `modulo${index + 1}`);

/** `devSteps` is the model calls of each dev's kickoff turn: steps before the last read the module contracts. */
export function parallelLineScript(options: {
  modules: number;
  devDelayMs: number;
  devPaceMs?: number;
  devSteps?: number;
  criativoAfter?: readonly ScriptTurn[];
}): { turns: ScriptTurn[] } {
  const names = parallelModules(options.modules);
  const map = {
    version: 1,
    modules: names.map((name) => ({
      name,
      stack: 'TypeScript',
      responsibility: `A parte ${name} do produto`,
      dependsOn: [],
    })),
  };
  const arquiteto: ScriptTurn[] = [
    { agent: 'arquiteto', tool_calls: [{ name: 'declare_module_map', arguments: map }] },
    { agent: 'arquiteto', tool_calls: [{ name: 'hand_off_to_devs', arguments: {} }] },
    { agent: 'arquiteto', text: 'Mapa declarado: aceite os handoffs dos devs.' },
  ];
  const devs = names.flatMap((name) =>
    Array.from(
      { length: options.devSteps ?? 1 },
      (_, step): ScriptTurn => ({
        agent: `dev:${name}`,
        text: `Trabalho em ${name}, passo ${step + 1}: leio a tarefa, escrevo o código e rodo os testes do módulo.`,
        ...(step + 1 < (options.devSteps ?? 1)
          ? { tool_calls: [{ name: 'listar_contratos_de_modulos', arguments: {} }] }
          : {}),
        delay_ms: options.devDelayMs,
        ...(options.devPaceMs === undefined ? {} : { pace_ms: options.devPaceMs }),
      }),
    ),
  );
  return { turns: [...UP_TO_ARQUITETO, ...arquiteto, ...devs, ...(options.criativoAfter ?? [])] };
}
