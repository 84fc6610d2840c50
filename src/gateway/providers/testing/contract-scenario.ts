import type { ModelProvider, ModelRequest } from '../model-provider.ts';
import type { WireTurn } from './wire-turn.ts';
import { chunkText } from './wire-turn.ts';

/** A model turn as the contract suite wants it played, whatever the provider. */
export type ContractTurn = {
  text: string;
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** Omitted: the provider reports no usage and must estimate it. */
  usage?: { inputTokens: number; outputTokens: number };
};

/** What the contract suite asks an implementation to arrange for one test. */
export type ContractScenario =
  | { kind: 'turn'; turn: ContractTurn }
  /** The call cannot be served (no turn left, an error mid-stream…): iteration must reject with a ProviderError. */
  | { kind: 'failure' }
  /** `firstText` arrives as the first delta, then nothing for far longer than the test: for cancellation. */
  | { kind: 'endless'; firstText: string };

/** A provider ready to play one scenario, and how to clean up after it. */
export type ContractFixture = { provider: ModelProvider; close?: () => Promise<void> };

/** The agent every contract request is made for. */
export const contractAgent = 'criativo';

/** The request every contract test sends. */
export const contractRequest: ModelRequest = {
  agent: contractAgent,
  system: 'You are Criativo, who ideates with the person.',
  messages: [{ role: 'user', content: 'I want an app for my bakery.' }],
  tools: [
    {
      name: 'emit_artifact',
      description: 'Records an artifact of the conversation.',
      parameters: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
    },
  ],
  maxOutputTokens: 256,
};

/**
 * Plays a contract turn on a wire test server: text cut mid-word into 3-character deltas and tool
 * arguments into 5-character chunks, so the adapters' reassembly is what the contract exercises.
 */
export function toWireTurn(turn: ContractTurn): WireTurn {
  return {
    textDeltas: chunkText(turn.text, 3),
    toolCalls: turn.toolCalls.map((call, index) => ({
      id: `call_contract_${index}`,
      name: call.name,
      argumentChunks: chunkText(JSON.stringify(call.arguments), 5),
    })),
    ...(turn.usage === undefined ? {} : { usage: turn.usage }),
  };
}

/**
 * Any contract scenario as a wire turn: a failure is an error event after some text (the hardest
 * case: parts already reached the caller), an endless stream stalls after its first delta.
 */
export function scenarioToWireTurn(scenario: ContractScenario): WireTurn {
  switch (scenario.kind) {
    case 'turn':
      return toWireTurn(scenario.turn);
    case 'failure':
      return {
        textDeltas: ['Partial ', 'answer'],
        interrupt: { errorType: 'invalid_request_error', message: 'scripted failure' },
      };
    case 'endless':
      return { textDeltas: [scenario.firstText], interrupt: 'stall' };
  }
}
