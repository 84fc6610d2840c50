/**
 * Run by `npm ci` (the `prepare` script): builds the migrated PGlite data directory a new embedded database
 * starts from (ADR 0425), under node_modules/.cache/forja, unless this version's is there already.
 */
import { buildPgliteTemplate, pgliteTemplateDirectory } from '../src/store/pglite-template.ts';

const directory = pgliteTemplateDirectory();
const started = performance.now();
const built = await buildPgliteTemplate(directory);
console.info(
  built
    ? `built the embedded database template in ${Math.round(performance.now() - started)} ms: ${directory}`
    : `the embedded database template is there already: ${directory}`,
);
