/** A table cell: one line, `|` escaped. */
export function cell(text: string): string {
  return oneLine(text).replaceAll('|', '\\|');
}

/** Text on one line, whatever the model put in it. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** An inline code span that survives backticks inside the text. */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const longestRun = Math.max(0, ...[...line.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return longestRun === 0 ? `${fence}${line}${fence}` : `${fence} ${line} ${fence}`;
}

/** A mermaid label: quotes and angle brackets would end or break it. */
export function mermaidLabel(text: string): string {
  return oneLine(text).replaceAll('"', "'").replaceAll('<', '‹').replaceAll('>', '›');
}

/** The line under every generated title: where the file comes from and how to change it. */
export function generatedNotice(artifactType: string, version: number): string {
  return `_Written by Forja from \`artifact.${artifactType}\` version ${version}, the current one. The Arquiteto changes it by declaring a new version, which overwrites this file; edits made here are lost._`;
}
