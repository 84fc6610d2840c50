import type { ArchitectureDocs } from '../../workspace/index.ts';
import type { LineDependencies } from '../line/line-dependencies.ts';

/** The Arquiteto also writes the current version of its artifacts to the project's docs/ folder. */
export interface ArquitetoDependencies extends LineDependencies {
  /** The workspace's docs/ writer (`createArchitectureDocs`, wired in composition.ts). */
  docs: ArchitectureDocs;
}
