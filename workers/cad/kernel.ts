import ocFactory, { type OpenCascadeInstance } from 'replicad-opencascadejs';
import * as replicad from 'replicad';

/**
 * The OpenCascade kernel of this thread (notes/cad-kernel.md "Kernel init"): one instance per worker thread, created
 * once with the Emscripten print hooks silenced (the STEP writer prints a banner otherwise), handed to replicad, and
 * warmed with a fillet + boolean + STL so the first real call does not pay V8's tier-up of the 23 MB wasm.
 * Never share the instance or any shape across threads.
 */
let instance: OpenCascadeInstance | undefined;

/** The kernel of this thread; throws before `initKernel` finished. */
export function oc(): OpenCascadeInstance {
  if (!instance) throw new Error('the CAD kernel of this thread is not initialised');
  return instance;
}

/** Loads the wasm, registers it with replicad and (optionally) warms it up; returns the init time in ms. */
export async function initKernel(opts: { warm?: boolean } = {}): Promise<number> {
  const started = performance.now();
  instance ??= await ocFactory({ print: () => undefined, printErr: () => undefined });
  replicad.setOC(instance);
  if (opts.warm !== false) warmUp();
  return performance.now() - started;
}

/** The dummy model of the note: a filleted plate with a hole, its validity check and a binary STL. */
function warmUp(): void {
  const plate = replicad.makeBaseBox(40, 20, 5).fillet(1);
  const hole = replicad.makeCylinder(2, 5);
  const cut = plate.cut(hole);
  new (oc().BRepCheck_Analyzer)(cut.wrapped, true, false).IsValid();
  cut.blobSTL({ binary: true, tolerance: 0.05, angularTolerance: 0.2 });
  for (const s of [plate, hole, cut]) s.delete();
}

/** Bytes of the wasm heap of this thread; it never shrinks, so the pool recycles the thread past a threshold. */
export function wasmHeapBytes(): number {
  return instance?.wasmMemory?.buffer.byteLength ?? 0;
}

/** An OCCT error as text: `WebAssembly.Exception`s carry `[type, message]` (the exception's refcount is released). */
export function kernelErrorText(err: unknown): string {
  const WasmException = (WebAssembly as unknown as { Exception?: new () => object }).Exception;
  if (instance && WasmException && err instanceof WasmException) {
    try {
      const ex = err as Parameters<OpenCascadeInstance['getExceptionMessage']>[0];
      const [type, message] = instance.getExceptionMessage(ex);
      instance.decrementExceptionRefcount(ex);
      return message ? `${type}: ${message}` : type;
    } catch {
      return 'OpenCascade raised an exception it could not describe';
    }
  }
  if (err instanceof Error) return err.message;
  return String(err);
}
