import type { SessionEvent } from '../../domain/conversation/index.ts';
import {
  applyBlockEvent,
  type DevBlock,
  newBlockLoop,
  readSessionEvent,
} from '../../domain/contract/index.ts';
import type { BlockKind } from '../../domain/line/index.ts';

export type { DevBlock };

/** Folds the log's blocks, in the order reported, by the rule the page folds them with too (ADR 0400). Pure. */
export function devBlocks(events: readonly SessionEvent[]): DevBlock[] {
  const loop = newBlockLoop();
  for (const event of events) {
    const reading = readSessionEvent(event);
    if (reading.kind === 'typed') applyBlockEvent(loop, reading.event);
  }
  return loop.blocks;
}

/** How the Arquiteto reads one open block: who, on what, and what resolves it. */
const OPEN_BLOCK: Readonly<Record<BlockKind, (block: DevBlock) => string>> = {
  interface: (block) =>
    `falta ${block.falta} — resolva com declare_module_contracts (nova versão que declare o que falta)`,
  check: (block) =>
    `o check do módulo ${block.modulo} está quebrado pelo mapa: ${block.falta} — resolva com declare_module_map (nova versão, check corrigido)`,
  task: (block) =>
    `tarefa ou fronteira de módulo errada: ${block.falta} — resolva com declare_module_map (nova versão) e, se preciso, assign_tasks_to_modules; uma tarefa que atravessa módulos, divida com split_task e diga ao dev com answer_block`,
  other: (block) => `${block.falta} — resolva com uma nova versão do mapa ou dos contratos`,
};

/** The Arquiteto's part of its task state while blocks are open: who is blocked, on what, and the ways out. */
export function renderOpenBlocks(blocks: readonly DevBlock[]): string | null {
  const open = blocks.filter((block) => block.status === 'open');
  if (open.length === 0) return null;
  return [
    'Bloqueios abertos dos devs — resolva cada um antes de qualquer outra coisa:',
    ...open.map(
      (block) =>
        `- ${block.agent} (módulo ${block.module}, seq ${block.seq}, tipo ${block.kind}) está bloqueado em ${block.modulo}: ${OPEN_BLOCK[block.kind](block)}; ou answer_block {dev, answer} se o dev deve seguir sem isso.`,
    ),
    'Uma nova versão leva a lista inteira (version maior). O dev recebe um turno dizendo o que mudou.',
  ].join('\n');
}

/** The dev's part of its task state once its block is resolved: what changed. */
export function renderUnblocked(blocks: readonly DevBlock[], agent: string): string | null {
  const mine = blocks.filter(
    (block) => block.agent === agent && block.status === 'unblocked' && block.resolution !== null,
  );
  const last = mine.at(-1);
  if (last === undefined || last.resolution === null) return null;
  const resolution = last.resolution;
  const what =
    resolution.kind === 'contracts'
      ? `o Arquiteto declarou os contratos na versão ${resolution.version}: leia-os com listar_contratos_de_modulos e siga com a tarefa.`
      : resolution.kind === 'module_map'
        ? `o Arquiteto declarou o mapa de módulos na versão ${resolution.version} (o seu módulo e o seu check, na camada contexto_projeto, já são os dessa versão): siga com a tarefa${last.kind === 'check' ? ' e chame finish_task de novo' : ''}.`
        : `o Arquiteto respondeu que você deve seguir sem isso: ${resolution.answer}`;
  return `Desbloqueado: o seu bloqueio em ${last.modulo} (${last.falta}) foi resolvido — ${what}`;
}
