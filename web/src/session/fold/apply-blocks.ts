import type { StoredEvent } from '../../api/types.ts';
import { fields, optionalText, text, whole } from './read.ts';
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
export function applyBlocks(draft: BlocksDraft, event: StoredEvent): void {
  const payload = fields(event.payload);
  switch (event.type) {
    case 'dev.blocked': {
      const agent = optionalText(payload['agent']);
      if (agent === null) return;
      draft.blocks.push({
        seq: event.seq,
        agent,
        module: text(payload['module']),
        modulo: text(payload['modulo']),
        falta: text(payload['falta']),
        kind: blockKind(payload['kind']),
        status: 'open',
        arquitetoTurns: 0,
        needsPerson: false,
      });
      return;
    }
    case 'artifact.module_contracts':
    case 'artifact.module_map': {
      if (typeof fields(payload['data'])['version'] !== 'number') return;
      const by = event.type === 'artifact.module_contracts' ? 'contracts' : 'module_map';
      for (const block of draft.blocks)
        if (block.status === 'open' && RESOLVED_BY[block.kind].includes(by))
          block.status = 'resolved';
      return;
    }
    case 'arquiteto.block_answered': {
      const block = draft.blocks.find(
        (candidate) => candidate.seq === whole(payload['block_seq']) && candidate.status === 'open',
      );
      if (block) block.status = 'resolved';
      return;
    }
    case 'dev.unblocked': {
      const block = draft.blocks.find((candidate) => candidate.seq === whole(payload['block_seq']));
      if (block) Object.assign(block, { status: 'unblocked', needsPerson: false });
      return;
    }
  }
  if (payload['agent'] !== 'arquiteto') return;
  if (event.type === 'turn.started') {
    draft.arquitetoTurnOpen = true;
    for (const block of draft.blocks) if (block.status === 'open') block.arquitetoTurns += 1;
  } else if (draft.arquitetoTurnOpen && endsTurn(event.type, payload)) {
    draft.arquitetoTurnOpen = false;
    for (const block of draft.blocks)
      if (block.status === 'open' && block.arquitetoTurns > 0) block.needsPerson = true;
  }
}

type BlockKind = LineBlock['kind'];
const RESOLVED_BY: Readonly<Record<BlockKind, readonly string[]>> = {
  interface: ['contracts'],
  check: ['module_map'],
  task: ['module_map'],
  other: ['contracts', 'module_map'],
};

/** A block recorded before kinds (or with one this UI does not know) is an interface. */
function blockKind(value: unknown): BlockKind {
  return value === 'check' || value === 'task' || value === 'other' ? value : 'interface';
}

function endsTurn(type: string, payload: Readonly<Record<string, unknown>>): boolean {
  if (type === 'turn.failed' || type === 'turn.completed' || type === 'toolloop.limit_reached')
    return true;
  return type === 'agent.response' && payload['tool_calls'] === undefined;
}
