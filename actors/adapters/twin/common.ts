import { callerAuthor } from '../../../contracts/principal.ts';
import type { Infra } from '../../../brokers/infra.ts';
import type { Writer } from '../../../contracts/twin-nodes.ts';
import { refusalsAsToolErrors } from '../kit/actor-call.ts';
import { InvalidArgumentsError, type ToolContext } from '../kit/tool.ts';
import { Workspace, workspaceRoot } from '../kit/workspace.ts';
import { createBlobStore, type BlobStore } from '../../../brokers/blobs.ts';

/** What the twin tools share: the blob store on the process's database, the workspace, the metrics registry. */
export interface TwinToolDeps {
  infra: Infra;
  blobs(): Promise<BlobStore>;
  workspace: Workspace;
}

export function twinToolDeps(infra: Infra): TwinToolDeps {
  let blobs: BlobStore | undefined;
  return {
    infra,
    workspace: new Workspace(workspaceRoot(infra.config)),
    async blobs() {
      blobs ??= createBlobStore(await infra.db());
      return blobs;
    },
  };
}

/** The writer of a tool call: inside a design-flow run its definition writes are drafts of that run. */
export const writerOf = (tc: ToolContext): Writer => ({
  ...(tc.caller.run_id ? { run_id: tc.caller.run_id } : {}),
  ...(tc.caller.run_id && tc.caller.run_epoch !== undefined ? { run_epoch: tc.caller.run_epoch } : {}),
  ...(tc.caller.phase ? { phase: tc.caller.phase } : {}),
  ...(tc.caller.run_id && tc.caller.run_attempt !== undefined ? { attempt: tc.caller.run_attempt } : {}),
  author: callerAuthor(tc.caller),
});

/** The project of a call: the argument, else the call context's project. */
export function projectOf(tc: ToolContext, given?: string | null): string | null {
  if (given && tc.caller.project_id && given !== tc.caller.project_id) {
    throw new InvalidArgumentsError(`project_id ${given} differs from this call's project ${tc.caller.project_id}`);
  }
  return given ?? tc.caller.project_id ?? null;
}

/** Runs a twin action; its not-found, stale and validation refusals become tool errors naming the reference. */
export const twinCall = refusalsAsToolErrors;

/** Null or empty means not given (SPEC Twin rule 3). */
export const given = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';
