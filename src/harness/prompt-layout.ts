/**
 * How layers and units are laid out in the prompt. Every layer that keeps anything starts with a Markdown
 * header naming it (`## contexto_projeto`) and each unit of a list layer with one naming the unit
 * (`### pkg/api/AGENTS.md`, `### regra-7`), so a model, and a person reading `forja context`, can tell where
 * each source begins. Headers are part of the layer's content and count against its budget: a layer's
 * reported tokens are the tokens of exactly what it adds to the prompt, and no layer ever exceeds its budget.
 * Layers are joined by a blank line, which belongs to no layer (see `total_tokens`).
 */

/** The marker the record puts after a truncated block. */
export const TRUNCATION_MARKER = '[… truncado …]';

/** What follows the kept prefix of a truncated block: the marker on its own line. */
export const TRUNCATION_SUFFIX = `\n${TRUNCATION_MARKER}`;

/** Between two layers in the prompt. */
export const LAYER_SEPARATOR = '\n\n';

/** Between two units of a list layer. */
export const UNIT_SEPARATOR = '\n\n';

// A unit id comes from a file path or a rules file; a newline in it must not forge a header of its own.
function escapeControlCharacters(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this function
  return text.replace(/[\u0000-\u001f\u007f]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** The first line of a layer's content. */
export function layerHeader(layerName: string): string {
  return `## ${layerName}\n`;
}

/** The first line of a unit inside a list layer. */
export function unitHeader(unitId: string): string {
  return `### ${escapeControlCharacters(unitId)}\n`;
}
