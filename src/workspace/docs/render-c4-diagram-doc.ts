import { C4_SYSTEM_ENDPOINT, type C4Diagram } from '../../domain/architecture/index.ts';
import { cell, generatedNotice, mermaidLabel } from './markdown.ts';

/**
 * `docs/c4-diagram.md`: the context level as a picture and a table. The container level is the module map
 * (`docs/module-map.md`), never repeated here.
 */
export function renderC4DiagramDoc(diagram: C4Diagram): string {
  const ids = new Map<string, string>([[C4_SYSTEM_ENDPOINT, 'system']]);
  const nodeId = (name: string) => {
    if (!ids.has(name)) ids.set(name, `n${ids.size}`);
    return ids.get(name)!;
  };
  const nodes = [
    `  system["${mermaidLabel(diagram.system.name)}"]`,
    ...diagram.actors.map(
      (actor) =>
        `  ${nodeId(actor.id)}${actor.kind === 'person' ? '(["' : '[["'}${mermaidLabel(actor.name)}${actor.kind === 'person' ? '"])' : '"]]'}`,
    ),
  ];
  const edges = diagram.relations.map(
    (relation) =>
      `  ${nodeId(relation.from)} -->|"${mermaidLabel(relation.description)}"| ${nodeId(relation.to)}`,
  );
  const declared = new Set([C4_SYSTEM_ENDPOINT, ...diagram.actors.map((actor) => actor.id)]);
  const moduleNodes = [...ids.entries()]
    .filter(([name]) => !declared.has(name))
    .map(([name, id]) => `  ${id}["${mermaidLabel(name)}"]`);
  return [
    `# C4 context — version ${diagram.version}`,
    '',
    generatedNotice('c4_diagram', diagram.version),
    '',
    `**${cell(diagram.system.name)}** — ${cell(diagram.system.description)}`,
    '',
    '```mermaid',
    'graph LR',
    ...nodes,
    ...moduleNodes,
    ...edges,
    '```',
    '',
    '| id | kind | name | description |',
    '|---|---|---|---|',
    ...diagram.actors.map(
      (actor) =>
        `| ${cell(actor.id)} | ${actor.kind} | ${cell(actor.name)} | ${cell(actor.description ?? '')} |`,
    ),
    '',
  ].join('\n');
}
