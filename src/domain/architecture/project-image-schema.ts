import { versionedArtifact } from './artifact-definition.ts';
import { requiredText, strictObject, versionSchema } from './schema-helpers.ts';
import type { z } from 'zod';

export const MAX_PROJECT_IMAGE_CHARACTERS = 4000;

/**
 * `artifact.project_image`: the Arquiteto's picture of the whole project in prose (what it is, its shape,
 * its main choices). The records name the artifact but not its fields, so it is kept to one bounded text,
 * versioned like the others.
 */
export const projectImageSchema = strictObject({
  version: versionSchema,
  summary: requiredText({
    field: 'summary',
    maxCharacters: MAX_PROJECT_IMAGE_CHARACTERS,
    emptyCode: 'empty_text',
    tooLongCode: 'text_too_long',
  }),
});

export type ProjectImage = z.output<typeof projectImageSchema>;

export const projectImageArtifact = versionedArtifact('project_image', projectImageSchema);
