import type { ModuleRouting } from '../../domain/architecture/index.ts';
import { cell, generatedNotice } from './markdown.ts';

/** `docs/module-routing.md`: where each module runs. */
export function renderModuleRoutingDoc(routing: ModuleRouting): string {
  return [
    `# Module routing — version ${routing.version}`,
    '',
    generatedNotice('module_routing', routing.version),
    '',
    '| module | infrastructure | notes |',
    '|---|---|---|',
    ...routing.routes.map(
      (route) => `| ${cell(route.module)} | ${cell(route.infra)} | ${cell(route.notes ?? '')} |`,
    ),
    '',
  ].join('\n');
}
