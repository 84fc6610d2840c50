import { ProviderError } from './provider-error.ts';

/** Which part of the request did not match a scripted turn's `expect`. */
export type ExpectationCheck = 'system' | 'messages' | 'tools' | 'max_output_tokens';

/**
 * The scripted model was called with a request its turn does not expect: the system prompt lacks a
 * substring, the messages lack one (in order), or a tool is not offered. The message names the turn
 * (its index in the script and the agent), what was expected and what was received, abridged.
 */
export class ScriptExpectationError extends ProviderError {
  override readonly name: string = 'ScriptExpectationError';
  readonly agent: string;
  /** The turn's index in the script's `turns`. */
  readonly scriptIndex: number;
  /** The turn's index among the agent's own turns (0: its first). */
  readonly agentTurn: number;
  readonly check: ExpectationCheck;
  /** What was expected, as the script says it. */
  readonly expected: string;
  /** What the request carried, abridged. */
  readonly received: string;
  constructor(fields: {
    source: string;
    agent: string;
    scriptIndex: number;
    agentTurn: number;
    check: ExpectationCheck;
    expected: string;
    received: string;
  }) {
    const turn = `turns[${fields.scriptIndex}] (${fields.agent}'s turn ${fields.agentTurn + 1}) of ${fields.source}`;
    super(
      'scripted',
      `scripted model: the call does not match ${turn}: expected ${fields.expected}; received ${fields.received}`,
    );
    this.agent = fields.agent;
    this.scriptIndex = fields.scriptIndex;
    this.agentTurn = fields.agentTurn;
    this.check = fields.check;
    this.expected = fields.expected;
    this.received = fields.received;
  }
}
