import { z } from 'zod';

/**
 * `overwrite` of every tool that writes a file where the caller says (`output_path`, `output_dir`): an existing file
 * there is refused unless it is true (`Workspace.resolveOutput`), and a call with it true is a destructive write for
 * the hold policy (`callAnnotations`, docs/decisions/0030-export-writes.md).
 */
export const OverwriteArg = z
  .boolean()
  .default(false)
  .describe('replace an existing file at the output path (default false: refused); such a call may overwrite');
