import { ProviderError } from './provider-error.ts';

/** The scripted model was asked for a turn of an agent that has no turn left in the script. */
export class ScriptExhaustedError extends ProviderError {
  override readonly name: string = 'ScriptExhaustedError';
  readonly agent: string;
  /** How many turns the script held for this agent (all already taken). */
  readonly turnCount: number;

  constructor(fields: { agent: string; turnCount: number }) {
    const held =
      fields.turnCount === 0
        ? 'the script has no turn for this agent'
        : `all ${fields.turnCount} of its turns in the script were already used`;
    super('scripted', `scripted model has no turn left for agent "${fields.agent}": ${held}`);
    this.agent = fields.agent;
    this.turnCount = fields.turnCount;
  }
}
