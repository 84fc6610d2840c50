import type {
  DeclarationProblem,
  DeclarationRefusal,
  ProblemAtPath,
  ProblemPath,
} from './declaration-problems.ts';
import { formatProblemPath } from './declaration-problems.ts';

/**
 * How many problems the reason text lists. A declaration with hundreds of broken items would otherwise fill
 * the model's context with repetitions of the same mistake; the count of the rest is still given.
 */
export const MAX_PROBLEMS_IN_REASON = 50;

/**
 * Builds the refusal returned to the model. ALL problems are reported, in document order (a parent field
 * before its children, array items by index, object fields in the order the tool documents them), so the
 * same arguments always produce the same text and the model can fix everything in one turn.
 */
export function refuseDeclaration(
  toolName: string,
  problems: readonly ProblemAtPath[],
  fieldOrder: readonly string[],
): DeclarationRefusal {
  const ordered = problems
    .map((problem, index) => ({ problem, index }))
    .sort(
      (left, right) =>
        comparePaths(left.problem.path, right.problem.path, fieldOrder) || left.index - right.index,
    )
    .map(
      ({ problem }): DeclarationProblem => ({
        code: problem.code,
        path: formatProblemPath(problem.path),
        message: problem.message,
      }),
    );
  return { ok: false, reason: formatReason(toolName, ordered), problems: ordered };
}

function formatReason(toolName: string, problems: readonly DeclarationProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = [`${toolName} refused (${count}); nothing was recorded.`];
  problems.slice(0, MAX_PROBLEMS_IN_REASON).forEach((problem, index) => {
    lines.push(`${index + 1}. ${problem.path}: ${problem.message}`);
  });
  if (problems.length > MAX_PROBLEMS_IN_REASON) {
    lines.push(`… and ${problems.length - MAX_PROBLEMS_IN_REASON} more problems not listed.`);
  }
  lines.push(`Fix every problem above and call ${toolName} again with the whole declaration.`);
  return lines.join('\n');
}

function comparePaths(
  left: ProblemPath,
  right: ProblemPath,
  fieldOrder: readonly string[],
): number {
  const length = Math.min(left.length, right.length);
  for (let position = 0; position < length; position += 1) {
    const difference = compareSegments(left[position], right[position], fieldOrder);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function compareSegments(
  left: PropertyKey | undefined,
  right: PropertyKey | undefined,
  fieldOrder: readonly string[],
): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const leftRank = rank(left, fieldOrder);
  const rightRank = rank(right, fieldOrder);
  if (leftRank !== rightRank) return leftRank - rightRank;
  const leftText = String(left);
  const rightText = String(right);
  return leftText < rightText ? -1 : leftText > rightText ? 1 : 0;
}

/** Known fields by their documented position; unknown ones after them, alphabetically. */
function rank(segment: PropertyKey | undefined, fieldOrder: readonly string[]): number {
  const position = typeof segment === 'string' ? fieldOrder.indexOf(segment) : -1;
  return position === -1 ? fieldOrder.length : position;
}
