import { stepLabel } from '../chat/StepsRow.tsx';
import { fields, optionalText } from '../fold/read.ts';
import type { ActionView } from '../fold/session-view.ts';

const MAX_ARGUMENT_CHARACTERS = 1200;

/** What a proposed action would do: a command as the command, a file as its path, anything else as its arguments. */
export function ActionWhat({ action }: { action: ActionView }) {
  const args = fields(action.args);
  const command = action.tool === 'terminal' ? optionalText(args['command']) : null;
  if (command !== null)
    return (
      <pre className="step-command" data-testid="action-command">
        <span aria-hidden="true">$ </span>
        {command}
      </pre>
    );
  const shown = JSON.stringify(action.args ?? {}, null, 2);
  return (
    <>
      <span className="muted small"> {stepLabel(action.tool)}</span>
      <pre className="arguments" data-testid="action-arguments">
        {shown.length > MAX_ARGUMENT_CHARACTERS
          ? `${shown.slice(0, MAX_ARGUMENT_CHARACTERS)}…`
          : shown}
      </pre>
    </>
  );
}
