import { topologicalOrder, type ModuleMap } from '../../domain/architecture/index.ts';
import { cell, generatedNotice, mermaidLabel } from './markdown.ts';

/** `docs/module-map.md`: the dependency graph as a picture (mermaid), the table, and the build order. */
export function renderModuleMapDoc(map: ModuleMap): string {
  const nodeId = new Map(map.modules.map((module, index) => [module.name, `m${index}`]));
  const graph = [
    '```mermaid',
    'graph LR',
    ...map.modules.map((module) => `  ${nodeId.get(module.name)}["${mermaidLabel(module.name)}"]`),
    ...map.modules.flatMap((module) =>
      module.dependsOn.map(
        (dependency) => `  ${nodeId.get(module.name)} --> ${nodeId.get(dependency)}`,
      ),
    ),
    '```',
  ];
  const table = [
    '| module | stack | responsibility | depends on |',
    '|---|---|---|---|',
    ...map.modules.map(
      (module) =>
        `| ${cell(module.name)} | ${cell(module.stack)} | ${cell(module.responsibility)} | ${cell(module.dependsOn.join(', ') || '—')} |`,
    ),
  ];
  const order = topologicalOrder(map);
  const orderLine = order.ok
    ? [`Build order (each module after what it depends on): ${order.order.join(' → ')}`]
    : [];
  return [
    `# Module map — version ${map.version}`,
    '',
    generatedNotice('module_map', map.version),
    '',
    'An arrow points from a module to a module it depends on.',
    '',
    ...graph,
    '',
    ...table,
    '',
    ...orderLine,
    '',
  ].join('\n');
}
