import type { ModelStreamPart } from '../model-provider.ts';

/** Everything a stream yielded, and the error it ended with, if any. */
export type StreamOutcome = { parts: ModelStreamPart[]; error: unknown };

/** Drains a stream without throwing, so a test can assert on the parts seen before a failure too. */
export async function collectStream(
  stream: AsyncIterable<ModelStreamPart>,
): Promise<StreamOutcome> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
    return { parts, error: undefined };
  } catch (error) {
    return { parts, error };
  }
}

/** The text of all `text-delta` parts, joined. */
export function joinText(parts: ModelStreamPart[]): string {
  return parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
}
