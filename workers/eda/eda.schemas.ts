import { z } from 'zod';

/** Task `design`: a schematic hierarchy's files (workspace-relative path -> text), read and confined by the caller. */
export const DesignTaskSchema = z.object({
  root: z.string().min(1),
  files: z.record(z.string(), z.string()),
});
export type DesignTask = z.infer<typeof DesignTaskSchema>;

/** Task `board`: one board file's text. */
export const BoardTaskSchema = z.object({ file: z.string().min(1), text: z.string() });
export type BoardTask = z.infer<typeof BoardTaskSchema>;
