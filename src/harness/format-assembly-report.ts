import type { AssemblyReport, LayerReport } from './assembly-report.ts';
import type { InstructionSkip } from './instruction-sources.ts';
import { TRUNCATION_MARKER } from './prompt-layout.ts';

/** What the human view needs besides the report itself. */
export interface ReportFormatContext {
  readonly tokenizerName: string;
  readonly skipped?: readonly InstructionSkip[];
}

const COLUMNS = [19, 18, 8, 8] as const;

function row(
  name: string,
  strategy: string,
  budget: string,
  tokens: string,
  status: string,
): string {
  return `${name.padEnd(COLUMNS[0])}${strategy.padEnd(COLUMNS[1])}${budget.padStart(COLUMNS[2])}${tokens.padStart(COLUMNS[3])}  ${status}`;
}

function whatWasCut(layer: LayerReport): string {
  if (layer.units !== undefined) {
    const dropped = layer.units.filter((unit) => !unit.kept).map((unit) => unit.id);
    const cut = layer.units.filter((unit) => unit.truncated).map((unit) => unit.id);
    const parts = [
      ...(dropped.length === 0 ? [] : [`dropped: ${dropped.join(', ')}`]),
      ...(cut.length === 0 ? [] : [`tail cut: ${cut.join(', ')}`]),
    ];
    return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
  }
  if (layer.status === 'truncated') return ` (tail cut, ends with ${TRUNCATION_MARKER})`;
  if (layer.status === 'dropped') return ' (did not fit: left out whole)';
  return '';
}

function layerLines(layer: LayerReport): string[] {
  const lines = [
    row(
      layer.name,
      layer.strategy,
      String(layer.budget),
      String(layer.tokens),
      layer.status + whatWasCut(layer),
    ),
  ];
  for (const unit of layer.units ?? []) {
    // A unit row has no strategy, so its id may use that column too.
    const id = `  ${unit.id}`.padEnd(COLUMNS[0] + COLUMNS[1] + COLUMNS[2]);
    lines.push(
      `${id}${String(unit.tokens).padStart(COLUMNS[3])}  ${unit.truncated ? 'tail cut' : unit.kept ? 'kept' : 'dropped'}`,
    );
  }
  return lines;
}

/**
 * The human view of `forja context`: one row per layer in prompt order (strategy, budget, tokens, status and
 * what was cut), one row per unit of a list layer, the skipped instruction sources, then the prompt.
 */
export function formatAssemblyReport(report: AssemblyReport, context: ReportFormatContext): string {
  const estimated = report.estimated ? ' (estimated)' : '';
  const lines = [
    `agent: ${report.agent}`,
    `tokenizer: ${context.tokenizerName}`,
    `total tokens: ${report.total_tokens}${estimated}`,
    '',
    row('layer', 'strategy', 'budget', 'tokens', 'status'),
    ...report.layers.flatMap(layerLines),
  ];
  const skipped = context.skipped ?? [];
  if (skipped.length > 0) {
    lines.push('', 'skipped instruction sources:');
    for (const skip of skipped)
      lines.push(`  ${skip.path}: ${skip.reason}${skip.detail ? ` (${skip.detail})` : ''}`);
  }
  lines.push('', '----- prompt -----', report.prompt, '----- end of prompt -----');
  return `${lines.join('\n')}\n`;
}
