import { type FoldEvent, isArtifactEvent } from './fold-event.ts';
import type { LineBlock } from './session-view.ts';

/** What the blocks fold keeps between events. */
export type BlocksDraft = { blocks: LineBlock[]; arquitetoTurnOpen: boolean };

export const newBlocksDraft = (): BlocksDraft => ({ blocks: [], arquitetoTurnOpen: false });

/**
 * The block loop as the server decides it (src/agents/dev/dev-blocks.ts, ADR 0110, ADR 0323): a `dev.blocked`
 * is open until a newer version its kind asks for (`module_contracts`, `module_map`) or the Arquiteto's
 * `arquiteto.block_answered` resolves it; once a turn of
 * the Arquiteto that started after it ends with the block still open, the person is needed.
 */
export function applyBlocks(draft: BlocksDraft, event: FoldEvent): void {
  if (isArtifactEvent(event)) {
    applyNewVersion(draft, event.type, event.payload.data);
    return;
  }
  switch (event.type) {
    case 'dev.blocked': {
      const { agent, module, modulo, falta, kind } = event.payload;
      draft.blocks.push({
        seq: event.seq,
        agent,
        module,
        modulo,
        falta,
        // A block recorded before kinds is an interface.
        kind: kind ?? 'interface',
        status: 'open',
        arquitetoTurns: 0,
        needsPerson: false,
      });
      return;
    }
    case 'arquiteto.block_answered': {
      const { block_seq } = event.payload;
      const block = draft.blocks.find(
        (candidate) => candidate.seq === block_seq && candidate.status === 'open',
      );
      if (block) block.status = 'resolved';
      return;
    }
    case 'dev.unblocked': {
      const { block_seq } = event.payload;
      const block = draft.blocks.find((candidate) => candidate.seq === block_seq);
      if (block) Object.assign(block, { status: 'unblocked', needsPerson: false });
      return;
    }
    case 'turn.started':
      if (event.payload.agent !== 'arquiteto') return;
      draft.arquitetoTurnOpen = true;
      for (const block of draft.blocks) if (block.status === 'open') block.arquitetoTurns += 1;
      return;
  }
  if (draft.arquitetoTurnOpen && endsArquitetoTurn(event)) {
    draft.arquitetoTurnOpen = false;
    for (const block of draft.blocks)
      if (block.status === 'open' && block.arquitetoTurns > 0) block.needsPerson = true;
  }
}

/** A new `module_contracts` or `module_map` version resolves the open blocks its kind asks for. */
function applyNewVersion(draft: BlocksDraft, type: string, data: unknown): void {
  const by =
    type === 'artifact.module_contracts'
      ? 'contracts'
      : type === 'artifact.module_map'
        ? 'module_map'
        : null;
  if (by === null || !hasVersion(data)) return;
  for (const block of draft.blocks)
    if (block.status === 'open' && RESOLVED_BY[block.kind].includes(by)) block.status = 'resolved';
}

const hasVersion = (data: unknown) =>
  typeof data === 'object' &&
  data !== null &&
  'version' in data &&
  typeof data.version === 'number';

type BlockKind = LineBlock['kind'];
const RESOLVED_BY: Readonly<Record<BlockKind, readonly string[]>> = {
  interface: ['contracts'],
  check: ['module_map'],
  task: ['module_map'],
  other: ['contracts', 'module_map'],
};

function endsArquitetoTurn(event: FoldEvent): boolean {
  switch (event.type) {
    case 'turn.failed':
      return event.payload.agent === 'arquiteto';
    case 'toolloop.limit_reached':
      return event.payload.agent === 'arquiteto';
    case 'agent.response':
      return event.payload.agent === 'arquiteto' && event.payload.tool_calls === undefined;
    default:
      return false;
  }
}
