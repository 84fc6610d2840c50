/**
 * The JSON object a companion was asked to answer with, found in its text: the whole text, or the first
 * fenced ```json block, or the outermost `{…}`. Null when none parses. Pure.
 */
export function parseJsonAnswer(text: string): unknown {
  const candidates = [text, /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1], outermostObject(text)];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === null) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next reading
    }
  }
  return null;
}

function outermostObject(text: string): string | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : null;
}
