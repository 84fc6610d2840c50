import type { SessionEvent } from '../../domain/conversation/index.ts';
import { artifactEventType } from '../../domain/artifacts/index.ts';
import {
  BLOCK_EVENT_TYPES,
  BlockAnsweredPayloadSchema,
  type BlockResolution,
  DEV_EVENT_TYPES,
  DevBlockedPayloadSchema,
  DevUnblockedPayloadSchema,
} from '../../domain/line/index.ts';

const CONTRACTS_EVENT = artifactEventType('module_contracts');

/**
 * One `dev.blocked` and where it stands: `open` until the Arquiteto resolves it, `resolved` once a newer
 * contracts version or an answer for that dev is in the log (the line still owes the dev's turn), `unblocked`
 * once `dev.unblocked` is recorded. `arquiteto_turns` counts the Arquiteto's turns started since the block.
 */
export interface DevBlock {
  seq: number;
  created_at: string;
  agent: string;
  module: string;
  modulo: string;
  falta: string;
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
        const { agent, module, modulo, falta } = parsed.data;
        blocks.push({
          seq: event.seq,
          created_at: event.created_at,
          agent,
          module,
          modulo,
          falta,
          status: 'open',
          resolution: null,
          arquiteto_turns: 0,
          needs_person: false,
        });
      }
    } else if (event.type === CONTRACTS_EVENT) {
      const version = (payload['data'] as { version?: unknown } | undefined)?.version;
      if (typeof version !== 'number') continue;
      for (const block of blocks)
        if (block.status === 'open')
          Object.assign(block, {
            status: 'resolved',
            resolution: { kind: 'contracts', version, seq: event.seq },
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

/** A turn ends with a response without tool calls, a failure or its ceiling. */
function isTurnEnd(event: SessionEvent): boolean {
  if (event.type === 'turn.failed' || event.type === 'toolloop.limit_reached') return true;
  return (
    event.type === 'agent.response' &&
    (event.payload as { tool_calls?: unknown }).tool_calls === undefined
  );
}

/** The Arquiteto's part of its task state while blocks are open: who is blocked, on what, and the two ways out. */
export function renderOpenBlocks(blocks: readonly DevBlock[]): string | null {
  const open = blocks.filter((block) => block.status === 'open');
  if (open.length === 0) return null;
  return [
    'Bloqueios abertos dos devs — resolva cada um antes de qualquer outra coisa:',
    ...open.map(
      (block) =>
        `- ${block.agent} (módulo ${block.module}, seq ${block.seq}) está bloqueado em ${block.modulo}: falta ${block.falta}`,
    ),
    'Para resolver: declare_module_contracts com uma nova versão (a lista inteira, version maior) que declare o que falta; ou, se o dev deve seguir sem isso, answer_block {dev, answer} com o motivo. O dev recebe um turno dizendo o que mudou.',
  ].join('\n');
}

/** The dev's part of its task state once its block is resolved: what changed. */
export function renderUnblocked(blocks: readonly DevBlock[], agent: string): string | null {
  const mine = blocks.filter(
    (block) => block.agent === agent && block.status === 'unblocked' && block.resolution !== null,
  );
  const last = mine.at(-1);
  if (last === undefined) return null;
  const what =
    last.resolution!.kind === 'contracts'
      ? `o Arquiteto declarou os contratos na versão ${last.resolution!.version}: leia-os com listar_contratos_de_modulos e siga com a tarefa.`
      : `o Arquiteto respondeu que você deve seguir sem isso: ${last.resolution!.answer}`;
  return `Desbloqueado: o seu bloqueio em ${last.modulo} (falta ${last.falta}) foi resolvido — ${what}`;
}
