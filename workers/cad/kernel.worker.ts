import { parentPort } from 'node:worker_threads';
import { KernelError } from './errors.ts';
import { initKernel, wasmHeapBytes } from './kernel.ts';
import { retireRequested } from './integrity.ts';
import { hardenRealm } from './sandbox.ts';
import { kernelTasks } from './tasks.ts';
import type { KernelReply, KernelRequest } from './host/protocol.ts';

/**
 * Entry of one kernel thread: initialises and warms the OpenCascade kernel at top level (the host waits for
 * `ready`), then runs one task at a time. Every reply carries the wasm heap size so the host can recycle the thread
 * when it grows (the heap never shrinks). Failures are replies, never crashes.
 */
const port = parentPort;
if (!port) throw new Error('kernel.worker.ts must run in a worker thread');

const initMs = await initKernel({ warm: true });
hardenRealm();
port.postMessage({ type: 'ready', init_ms: initMs, heap_bytes: wasmHeapBytes() } satisfies KernelReply);

// A promise a script left rejected must not take the thread (and every session document on it) down.
process.on('unhandledRejection', () => undefined);

let chain: Promise<unknown> = Promise.resolve();
port.on('message', (msg: KernelRequest) => {
  chain = chain.then(() => handle(msg));
});

async function handle(msg: KernelRequest): Promise<void> {
  const fn = (kernelTasks as Record<string, (input: unknown) => Promise<unknown>>)[msg.task];
  try {
    if (!fn) throw new Error(`unknown kernel task ${msg.task}`);
    const value = await fn(msg.input);
    port!.postMessage({
      type: 'result',
      id: msg.id,
      ok: true,
      value,
      heap_bytes: wasmHeapBytes(),
      retire: retireRequested(),
    } satisfies KernelReply);
  } catch (err) {
    const e = err as Error;
    const failure =
      err instanceof KernelError
        ? { kind: err.kind, message: err.message, details: err.details }
        : {
            kind: 'internal' as const,
            message: e?.message ?? String(err),
            details: {
              stack: String(e?.stack ?? '')
                .split('\n')
                .slice(0, 6)
                .join('\n'),
            },
          };
    port!.postMessage({
      type: 'result',
      id: msg.id,
      ok: false,
      error: failure,
      heap_bytes: wasmHeapBytes(),
      retire: retireRequested(),
    } satisfies KernelReply);
  }
}
