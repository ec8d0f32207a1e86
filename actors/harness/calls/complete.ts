import type { Completion } from '../../../contracts/harness-calls.ts';
import { completeAnthropic } from './anthropic.family.ts';
import { classifyError } from './errors.ts';
import { completeOpenAI } from './openai.family.ts';
import { checkOffered } from './tool-calls.ts';
import { DEFAULT_IDLE_TIMEOUT_MS, type CallProgress, type CompleteRequest } from './types.ts';
import { Watchdog } from './watchdog.ts';

/**
 * One model call, family-neutral: the provider's family picks the wire format, the official SDK carries it. Every
 * failure leaves as a classified `HarnessCallError` (never a raw SDK error); a tool call naming a tool the request
 * did not offer is refused here, so no caller runs it. `progress` keeps what the provider reported before a fault.
 */
export async function complete(req: CompleteRequest, progress: CallProgress = {}): Promise<Completion> {
  const watch = new Watchdog(req.provider.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, req.signal);
  try {
    const result =
      req.provider.family === 'anthropic'
        ? await completeAnthropic(req, watch, progress)
        : await completeOpenAI(req, watch, progress);
    checkOffered(result.tool_calls, req.tools ?? []);
    return result;
  } catch (e) {
    // An abort by the idle clock or the caller surfaces from the SDK as an abort error: name what caused it.
    watch.check();
    throw classifyError(e);
  } finally {
    watch.dispose();
  }
}
