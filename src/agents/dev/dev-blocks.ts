import type { SessionEvent } from '../../domain/conversation/index.ts';
import { artifactEventType } from '../../domain/artifacts/index.ts';
import {
  BLOCK_EVENT_TYPES,
  BlockAnsweredPayloadSchema,
  type BlockKind,
  type BlockResolution,
  DEV_EVENT_TYPES,
  DevBlockedPayloadSchema,
  DevUnblockedPayloadSchema,
} from '../../domain/line/index.ts';

const CONTRACTS_EVENT = artifactEventType('module_contracts');
const MAP_EVENT = artifactEventType('module_map');

/** Which new version resolves a block of each kind (`answer_block` resolves any). */
const RESOLVED_BY: Readonly<Record<BlockKind, ReadonlyArray<'contracts' | 'module_map'>>> = {
  interface: ['contracts'],
  check: ['module_map'],
  task: ['module_map'],
  other: ['contracts', 'module_map'],
};

/**
 * One `dev.blocked` and where it stands: `open` until the Arquiteto resolves it, `resolved` once a newer
 * version its kind asks for (contracts, module map) or an answer for that dev is in the log (the line still owes the dev's turn), `unblocked`
 * once `dev.unblocked` is recorded. `arquiteto_turns` counts the Arquiteto's turns started since the block.
 */
export interface DevBlock {
  seq: number;
  created_at: string;
  agent: string;
  module: string;
  modulo: string;
  falta: string;
  kind: BlockKind;
  status: 'open' | 'resolved' | 'unblocked';
  resolution: BlockResolution | null;
  arquiteto_turns: number;
  /** Whether the Arquiteto's turn after the block ended without resolving it: the person is needed. */
  needs_person: boolean;
}

/** Folds the log's blocks, in the order reported. Pure. */
export function devBlocks(events: readonly SessionEvent[]): DevBlock[] {
  const blocks: DevBlock[] = [];
  let arquitetoTurnOpen = false;
  for (const event of events) {
    const payload = event.payload as Record<string, unknown>;
    if (event.type === DEV_EVENT_TYPES.blocked) {
      const parsed = DevBlockedPayloadSchema.safeParse(event.payload);
      if (parsed.success) {
        const { agent, module, modulo, falta, kind = 'interface' } = parsed.data;
        blocks.push({
          seq: event.seq,
          created_at: event.created_at,
          agent,
          module,
          modulo,
          falta,
          kind,
          status: 'open',
          resolution: null,
          arquiteto_turns: 0,
          needs_person: false,
        });
      }
    } else if (event.type === CONTRACTS_EVENT || event.type === MAP_EVENT) {
      const version = (payload['data'] as { version?: unknown } | undefined)?.version;
      if (typeof version !== 'number') continue;
      const kind = event.type === CONTRACTS_EVENT ? 'contracts' : 'module_map';
      for (const block of blocks)
        if (block.status === 'open' && RESOLVED_BY[block.kind].includes(kind))
          Object.assign(block, {
            status: 'resolved',
            resolution: { kind, version, seq: event.seq },
          });
    } else if (event.type === BLOCK_EVENT_TYPES.answered) {
      const parsed = BlockAnsweredPayloadSchema.safeParse(event.payload);
      if (!parsed.success) continue;
      const block = blocks.find(
        (candidate) => candidate.seq === parsed.data.block_seq && candidate.status === 'open',
      );
      if (block !== undefined)
        Object.assign(block, {
          status: 'resolved',
          resolution: { kind: 'answer', answer: parsed.data.answer, seq: event.seq },
        });
    } else if (event.type === BLOCK_EVENT_TYPES.unblocked) {
      const parsed = DevUnblockedPayloadSchema.safeParse(event.payload);
      const block = parsed.success
        ? blocks.find((candidate) => candidate.seq === parsed.data.block_seq)
        : undefined;
      if (block !== undefined && parsed.success)
        Object.assign(block, {
          status: 'unblocked',
          resolution: parsed.data.resolution,
          needs_person: false,
        });
    } else if (payload['agent'] === 'arquiteto' && event.type === 'turn.started') {
      arquitetoTurnOpen = true;
      for (const block of blocks) if (block.status === 'open') block.arquiteto_turns += 1;
    } else if (payload['agent'] === 'arquiteto' && arquitetoTurnOpen && isTurnEnd(event)) {
      arquitetoTurnOpen = false;
      for (const block of blocks)
        if (block.status === 'open' && block.arquiteto_turns > 0) block.needs_person = true;
    }
  }
  return blocks;
}

/** A turn ends with a response without tool calls, `turn.completed` (ADR 0380), a failure or its ceiling. */
function isTurnEnd(event: SessionEvent): boolean {
  const ends = ['turn.failed', 'turn.completed', 'toolloop.limit_reached'];
  if (ends.includes(event.type)) return true;
  return (
    event.type === 'agent.response' &&
    (event.payload as { tool_calls?: unknown }).tool_calls === undefined
  );
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
