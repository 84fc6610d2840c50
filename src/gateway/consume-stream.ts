import type { FinishReason, ModelStreamPart, ToolCallPart } from './providers/index.ts';
import type { TurnUsage } from './model-gateway.ts';

/** What a stream has delivered so far; kept by the caller so a failure still knows the partial text. */
export interface StreamProgress {
  text: string;
  toolCalls: ToolCallPart[];
  usage: TurnUsage | null;
  finishReason: FinishReason;
  firstTokenAt: number | null;
}

/** Reads a provider stream to its end into `progress`, passing text deltas on as they arrive. */
export async function consumeStream(
  stream: AsyncIterable<ModelStreamPart>,
  progress: StreamProgress,
  now: () => number,
  onTextDelta?: (text: string) => void,
): Promise<void> {
  for await (const part of stream) {
    switch (part.type) {
      case 'text-delta':
        progress.firstTokenAt ??= now();
        progress.text += part.text;
        onTextDelta?.(part.text);
        break;
      case 'tool-call':
        progress.firstTokenAt ??= now();
        progress.toolCalls.push(part);
        break;
      case 'usage':
        progress.usage = {
          inputTokens: part.inputTokens,
          outputTokens: part.outputTokens,
          estimated: part.estimated,
          ...(part.cachedInputTokens === undefined
            ? {}
            : { cachedInputTokens: part.cachedInputTokens }),
          ...(part.cacheWriteInputTokens === undefined
            ? {}
            : { cacheWriteInputTokens: part.cacheWriteInputTokens }),
        };
        break;
      case 'finish':
        progress.finishReason = part.reason;
        break;
    }
  }
}
