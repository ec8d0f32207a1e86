import crypto from 'node:crypto';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { TestNode } from '../../support/node.ts';

/**
 * Waits until the node's CAD kernel thread is initialised and warm: one call of a file tool on a missing file, which
 * queues behind the warm-up and then fails fast as invalid arguments. On a loaded 2-core machine the warm-up can take
 * longer than the broker's default 10 s request timeout the tests' callTool uses.
 */
export async function warmUp(t: TestNode, tool: string): Promise<void> {
  const out = await call(
    t.node.broker,
    ToolsActions.call,
    {
      name: tool,
      arguments: { file_path: 'warm-up/missing.step' },
      call_id: `warm-${crypto.randomUUID()}`,
      caller: { kind: 'stdio', transport: 'stdio' },
    },
    { timeout: 120_000 },
  );
  if (out.status !== 'error' || !['TOOL_EXECUTION_ERROR', 'TOOL_TIMEOUT', 'INVALID_ARGUMENTS'].includes(out.error.type))
    throw new Error(`warm-up call answered ${JSON.stringify(out)}`);
}

/** A tool call (local caller) with a broker timeout that outlasts a kernel thread's restart on a loaded machine. */
export function patientCall(t: TestNode, name: string, args: Record<string, unknown>, timeoutSeconds = 120) {
  return call(
    t.node.broker,
    ToolsActions.call,
    {
      name,
      arguments: args,
      timeout_seconds: timeoutSeconds,
      call_id: `t-${crypto.randomUUID()}`,
      caller: { kind: 'stdio', transport: 'stdio' },
    },
    { timeout: (timeoutSeconds + 5) * 1000 },
  );
}
