import type { ProjectImage } from '../../domain/architecture/index.ts';
import { generatedNotice } from './markdown.ts';

/** `docs/project-image.md`: the Arquiteto's picture of the project in prose. */
export function renderProjectImageDoc(image: ProjectImage): string {
  return [
    `# Project image — version ${image.version}`,
    '',
    generatedNotice('project_image', image.version),
    '',
    image.summary.trim(),
    '',
  ].join('\n');
}
