import { fields, optionalText, text } from './read.ts';
import type { StepDetail } from './session-view.ts';

/** The terminal tool's status line (`[exit code N]` or `[killed by SIGNAL]`), the last line before its notes. */
const STATUS_LINE = /^\[(exit code -?\d+|killed by [^\]]+)\]$/;
/** The notes the terminal tool puts after its status line: a time limit, a stop, a limit, a cut, no sandbox. */
const NOTE_LINE = /^\[(stopped: |limit: |output cut at |ran WITHOUT the sandbox)[^\n]*\]$/;

/**
 * What a step did, read from its `tool.completed` (`args` and `result`) for the chat to show when the step
 * opens. `before` is the content the session last knew for a file it writes (its last write or read by the same
 * agent), or null when the session never saw the file. Nothing here trusts the payload: a result that is not in
 * the tool's shape is shown as text.
 */
export function readStepDetail(
  tool: string,
  argsValue: unknown,
  result: string,
  before: string | null,
): StepDetail {
  const args = fields(argsValue);
  if (tool === 'terminal') {
    const command = text(args['command']);
    return { kind: 'terminal', command, ...readTerminalResult(command, result) };
  }
  if (tool === 'write_file' && optionalText(args['path']) !== null)
    return { kind: 'write', path: text(args['path']), content: text(args['content']), before };
  return { kind: 'text', args: shownArguments(argsValue), result };
}

/** The terminal tool's result cut into its output, its exit status and its notes (see terminal-tool.ts). */
export function readTerminalResult(
  command: string,
  result: string,
): { output: string; exit: string | null; notes: string[] } {
  const lines = result.split('\n');
  if (lines[0] === `$ ${command}`) lines.shift();
  const notes: string[] = [];
  while (lines.length > 0 && NOTE_LINE.test(lines.at(-1)!))
    notes.unshift(lines.pop()!.slice(1, -1));
  const status = lines.length > 0 ? STATUS_LINE.exec(lines.at(-1)!) : null;
  if (status === null) return { output: result, exit: null, notes: [] };
  lines.pop();
  return { output: lines.join('\n'), exit: status[1]!, notes };
}

/** The arguments as the person reads them (none: empty). */
function shownArguments(value: unknown): string {
  const args = fields(value);
  const keys = Object.keys(args);
  if (keys.length === 0) return '';
  return JSON.stringify(args, null, 2);
}

/** The key under which the fold remembers a file's last known content: files are per agent (its worktree). */
export const fileKey = (agent: string, path: string) => `${agent}\u0000${path}`;
