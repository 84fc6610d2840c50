import type { BlockKind, BlockResolution } from '../line/index.ts';
import { endsTurn } from '../conversation/event-types.ts';
import {
  type ArtifactEventOf,
  isArtifactEvent,
  type TypedSessionEvent,
} from './session-event-union.ts';

/**
 * One `dev.blocked` and where it stands: `open` until the Arquiteto resolves it, `resolved` once a newer
 * version its kind asks for (contracts, module map) or an answer for that dev is in the log (the line still
 * owes the dev's turn), `unblocked` once `dev.unblocked` is recorded. `arquiteto_turns` counts the Arquiteto's
 * turns started since the block.
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

/** What the block loop keeps between events. */
export type BlockLoop = { blocks: DevBlock[]; arquitetoTurnOpen: boolean };

export const newBlockLoop = (): BlockLoop => ({ blocks: [], arquitetoTurnOpen: false });

/** Which new version resolves a block of each kind (`answer_block` resolves any). */
const RESOLVED_BY: Readonly<Record<BlockKind, ReadonlyArray<'contracts' | 'module_map'>>> = {
  interface: ['contracts'],
  check: ['module_map'],
  task: ['module_map'],
  other: ['contracts', 'module_map'],
};

type Row = { readonly seq: number; readonly created_at: string };

/**
 * The block loop (ADR 0110, ADR 0323), one event at a time: the server's rule and the page's, the same code
 * (ADR 0400). Once a turn of the Arquiteto that started after a block ends with the block still open, the
 * person is needed.
 */
export function applyBlockEvent(loop: BlockLoop, event: TypedSessionEvent<Row>): void {
  if (isArtifactEvent(event)) return applyNewVersion(loop, event);
  switch (event.type) {
    case 'dev.blocked': {
      const { agent, module, modulo, falta, kind = 'interface' } = event.payload;
      loop.blocks.push({
        ...{ seq: event.seq, created_at: event.created_at, agent, module, modulo, falta, kind },
        ...{ status: 'open', resolution: null, arquiteto_turns: 0, needs_person: false },
      });
      return;
    }
    case 'arquiteto.block_answered': {
      const { block_seq, answer } = event.payload;
      const block = loop.blocks.find((each) => each.seq === block_seq && each.status === 'open');
      if (block !== undefined)
        Object.assign(block, {
          status: 'resolved',
          resolution: { kind: 'answer', answer, seq: event.seq },
        });
      return;
    }
    case 'dev.unblocked': {
      const { block_seq, resolution } = event.payload;
      const block = loop.blocks.find((each) => each.seq === block_seq);
      if (block !== undefined)
        Object.assign(block, { status: 'unblocked', resolution, needs_person: false });
      return;
    }
    case 'turn.started':
      if (event.payload.agent !== 'arquiteto') return;
      loop.arquitetoTurnOpen = true;
      for (const block of loop.blocks) if (block.status === 'open') block.arquiteto_turns += 1;
      return;
  }
  if (loop.arquitetoTurnOpen && endsArquitetoTurn(event)) {
    loop.arquitetoTurnOpen = false;
    for (const block of loop.blocks)
      if (block.status === 'open' && block.arquiteto_turns > 0) block.needs_person = true;
  }
}

/** A new `module_contracts` or `module_map` version resolves the open blocks its kind asks for. */
function applyNewVersion(loop: BlockLoop, event: ArtifactEventOf<Row>): void {
  const kind =
    event.type === 'artifact.module_contracts'
      ? 'contracts'
      : event.type === 'artifact.module_map'
        ? 'module_map'
        : null;
  const { data } = event.payload;
  const version =
    typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (kind === null || typeof version !== 'number') return;
  for (const block of loop.blocks)
    if (block.status === 'open' && RESOLVED_BY[block.kind].includes(kind))
      Object.assign(block, { status: 'resolved', resolution: { kind, version, seq: event.seq } });
}

/** A turn of the Arquiteto ends (`endsTurn`: its answer without tool calls, `turn.completed`, a failure, its ceiling). */
function endsArquitetoTurn(event: TypedSessionEvent<Row>): boolean {
  const { payload } = event;
  return 'agent' in payload && payload.agent === 'arquiteto' && endsTurn(event);
}
