import type { PromptUnit } from './assembly-report.ts';
import type { InstructionSource } from './instruction-sources.ts';
import { governedDirectory } from './order-instruction-paths.ts';

// The line that introduces a file with the directory it governs (the prompts are in Portuguese).
function governsLine(source: InstructionSource): string {
  const directory = source.directory ?? governedDirectory(source.id);
  return directory === ''
    ? 'Vale para todo o repositório.'
    : `Vale para ${directory}/ e tudo abaixo.`;
}

/**
 * Instruction sources as prompt units, in the order given (ascending priority): each file's text is
 * introduced by the directory it governs; the graph template and the patches are taken as they are.
 */
export function instructionUnits(sources: readonly InstructionSource[]): PromptUnit[] {
  return sources.map((source) => ({
    id: source.id,
    text:
      source.priority_kind === 'root' || source.priority_kind === 'dir'
        ? `${governsLine(source)}\n${source.content}`
        : source.content,
  }));
}
