import {
  applyBlockEvent,
  type BlockLoop,
  type DevBlock,
  newBlockLoop,
} from '../../../../src/domain/contract/index.ts';
import type { FoldEvent } from './fold-event.ts';
import type { LineBlock } from './session-view.ts';

/** What the blocks fold keeps between events: the server's own block loop. */
export type BlocksDraft = BlockLoop;

export const newBlocksDraft = (): BlocksDraft => newBlockLoop();

/**
 * The block loop as the server decides it (ADR 0110, ADR 0323): the same rule, shared through the contract
 * (ADR 0400). A `dev.blocked` is open until a newer version its kind asks for (`module_contracts`,
 * `module_map`) or the Arquiteto's `arquiteto.block_answered` resolves it; once a turn of the Arquiteto that
 * started after it ends with the block still open, the person is needed.
 */
export function applyBlocks(draft: BlocksDraft, event: FoldEvent): void {
  applyBlockEvent(draft, event);
}

/** A block as the page shows it. */
export function toLineBlock(block: DevBlock): LineBlock {
  const { seq, agent, module, modulo, falta, kind, status } = block;
  return {
    ...{ seq, agent, module, modulo, falta, kind, status },
    arquitetoTurns: block.arquiteto_turns,
    needsPerson: block.needs_person,
  };
}
