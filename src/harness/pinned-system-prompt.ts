import { LAYER_NAMES } from './layers.ts';
import { layerHeader } from './prompt-layout.ts';

/**
 * A lane's system prompt held still, so a provider's prompt cache keeps serving the history after it (ADR 0430).
 *
 * Each call assembles the system prompt afresh (ADR 0006: five layers, each within its budget). Sending it as
 * it is breaks the cached prefix at the first byte that changed, and everything after it, the whole history,
 * is paid again: a new business rule, the Arquiteto's "declared so far" line, a dev's task state. Instead the
 * lane keeps the prompt it sent first (the pin); a call whose fresh prompt differs from what the model was
 * given sends, after the history, the paragraphs that changed since: one short message, which then stays where
 * it was sent, part of the history later calls repeat. When the updates would add up to more than the fresh
 * prompt, or the identity or the instruction files changed, the pin moves to the fresh prompt (the history is
 * paid once).
 *
 * Pure: the caller keeps the pin per lane and places the updates.
 */

/** A lane's pin: the prompt it sends, the prompt its updates bring the model to, what they add up to. */
export interface PinState {
  /** The system prompt the lane sends. */
  system: string;
  /** The prompt the pin and the updates sent so far amount to: the next update is measured from it. */
  known: string;
  /** The characters of the updates sent since the pin was made. */
  updatesLength: number;
}

/** One call's step: the lane's pin after it, the update to send (null: none), and whether the pin moved. */
export interface PinStep {
  state: PinState;
  update: string | null;
  moved: boolean;
}

/** The share of the fresh prompt the updates may add up to before the pin moves to the fresh prompt. */
export const PIN_MOVES_PAST = 3;

/** The opening of an update message: the model reads it as what replaces the pinned paragraphs. */
export const UPDATE_HEADER =
  'Atualização do seu prompt de sistema: desde que ele foi montado, estes trechos mudaram. Eles valem no lugar dos trechos correspondentes de lá.';

const PARAGRAPH = /\n{2,}/;

/**
 * Keeps the pin while the updates stay small; otherwise (or with no pin yet, or when what governs the agent
 * changed) the fresh prompt is the pin. The update holds what changed since the last update, not since the pin:
 * the earlier ones stay where they were sent.
 */
export function pinSystemPrompt(pin: PinState | undefined, fresh: string): PinStep {
  const moved = {
    state: { system: fresh, known: fresh, updatesLength: 0 },
    update: null,
    moved: true,
  };
  if (pin === undefined || governingHead(pin.system) !== governingHead(fresh)) return moved;
  if (pin.known === fresh) return { state: pin, update: null, moved: false };
  const update = systemPromptUpdate(pin.known, fresh);
  if (update === null) return { state: { ...pin, known: fresh }, update: null, moved: false };
  const updatesLength = pin.updatesLength + update.length;
  if (updatesLength > fresh.length * PIN_MOVES_PAST) return moved;
  return { state: { system: pin.system, known: fresh, updatesLength }, update, moved: false };
}

/**
 * The paragraphs of `fresh` that `pinned` does not hold, each under the heading it sits below, then the
 * paragraphs of `pinned` that no longer hold and were not replaced under their heading. Null when the two hold
 * the same paragraphs (only their order or blank lines differ).
 */
export function systemPromptUpdate(pinned: string, fresh: string): string | null {
  const before = paragraphs(pinned);
  const after = paragraphs(fresh);
  const kept = new Set(before.map((paragraph) => paragraph.text));
  const still = new Set(after.map((paragraph) => paragraph.text));
  const changed = after.filter((paragraph) => !kept.has(paragraph.text));
  const replacedSections = new Set(changed.map((paragraph) => sectionKey(paragraph.section)));
  const gone = before.filter(
    (paragraph) =>
      !still.has(paragraph.text) && !replacedSections.has(sectionKey(paragraph.section)),
  );
  if (changed.length === 0 && gone.length === 0) return null;
  const parts = [UPDATE_HEADER, ...changed.map(showChanged)];
  if (gone.length > 0)
    parts.push(
      ['Não valem mais:', ...gone.map((paragraph) => `- «${firstLine(paragraph.text)}»`)].join(
        '\n',
      ),
    );
  return parts.join('\n\n');
}

// The layers after the identity and the instruction files, whose headers end what governs the agent.
const LATER_LAYER = new RegExp(
  `^${LAYER_NAMES.slice(LAYER_NAMES.indexOf('contexto_projeto'))
    .map((name) => layerHeader(name).trimEnd())
    .join('|')}$`,
  'm',
);

/**
 * The identity and the instruction files: what governs the agent is never left stale in a pin (an instruction
 * file edited, accepted or quarantined, ADR 0302, moves the pin).
 */
function governingHead(prompt: string): string {
  const later = LATER_LAYER.exec(prompt);
  return later === null ? prompt : prompt.slice(0, later.index);
}

interface Paragraph {
  text: string;
  /** The heading line (`## …`, `### …`) the paragraph sits below, or begins with; '' before any. */
  section: string;
}

function paragraphs(prompt: string): Paragraph[] {
  let section = '';
  return prompt
    .split(PARAGRAPH)
    .filter((text) => text.trim() !== '')
    .map((text) => {
      const headings = text.split('\n').filter((line) => /^#{2,3} /.test(line));
      const own = text.startsWith('#') ? (headings[0] ?? section) : section;
      section = headings.at(-1) ?? section;
      return { text, section: own };
    });
}

/** A heading without what follows its name in parentheses: `## Mapa de módulos (versão 2)` is the map's. */
function sectionKey(heading: string): string {
  const open = heading.indexOf(' (');
  return open < 0 ? heading : heading.slice(0, open);
}

function showChanged(paragraph: Paragraph): string {
  if (paragraph.text.startsWith('#') || paragraph.section === '') return paragraph.text;
  return `(em ${paragraph.section})\n${paragraph.text}`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
