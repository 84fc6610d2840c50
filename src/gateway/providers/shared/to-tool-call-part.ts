import type { ToolCallPart } from '../model-provider.ts';
import { parseToolCallArguments } from './parse-tool-call-arguments.ts';

/** Builds the `tool-call` part for a call whose arguments are complete. */
export function toToolCallPart(call: {
  id: string;
  name: string;
  rawArguments: string;
}): ToolCallPart {
  const parsed = parseToolCallArguments(call.rawArguments);
  return {
    type: 'tool-call',
    id: call.id,
    name: call.name,
    rawArguments: call.rawArguments,
    ...parsed,
  };
}
