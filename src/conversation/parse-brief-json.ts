/**
 * The consolidation turn answers with the brief as JSON. Models wrap JSON in prose or code fences now and
 * then; this takes the outermost object in the text. Returns null when there is no parseable object.
 */
export function parseBriefJson(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
}
