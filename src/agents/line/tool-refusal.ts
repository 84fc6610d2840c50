/** One problem with a tool's arguments, at the path the model wrote (`tasks[1].module`). */
export interface ArgumentProblem {
  path: string;
  message: string;
}

/**
 * The full reason returned to the model when a line tool refuses: every problem at once, numbered, and
 * what to do, in the same shape as the Arquiteto's declaration refusals.
 */
export function refusalText(toolName: string, problems: readonly ArgumentProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return [
    `${toolName} refused (${count}); nothing was recorded.`,
    ...problems.map((problem, index) => `${index + 1}. ${problem.path}: ${problem.message}`),
    `Fix every problem above and call ${toolName} again.`,
  ].join('\n');
}

/** `['tasks', 1, 'module']` → `tasks[1].module`. */
export function pathText(segments: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of segments)
    text +=
      typeof segment === 'number' ? `[${segment}]` : `${text === '' ? '' : '.'}${String(segment)}`;
  return text === '' ? '(arguments)' : text;
}
