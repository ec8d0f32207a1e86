/**
 * A committed CAD model in 3D (loaded lazily with three.js): the GLB of `GET /v1/twin/nodes/{id}/model` (the gateway
 * converts the stored STEP/IGES once per content hash), parsed by three's GLTFLoader into the shared scene setup.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Vector3, type Box3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { request } from '../api/gateway.ts';
import { ErrorNote, Loading } from '../ui/common.tsx';
import { fmt } from './field-data.ts';
import { boxOf, createViewer, VIEW_HINT } from './scene.ts';

export default function ModelViewer(props: { nodeId: string; name: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<{ loading: boolean; error?: unknown; size?: Vector3; bytes?: number }>({
    loading: true,
  });
  const hint = useId();

  useEffect(() => {
    const viewer = createViewer(canvasRef.current!, 'y');
    const abort = new AbortController();
    setState({ loading: true });
    (async () => {
      const res = await request(`/v1/twin/nodes/${encodeURIComponent(props.nodeId)}/model`, {
        headers: { accept: 'model/gltf-binary' },
        signal: abort.signal,
      });
      const bytes = await res.arrayBuffer();
      const gltf = await new GLTFLoader().parseAsync(bytes, '');
      if (abort.signal.aborted) return;
      viewer.scene.add(gltf.scene);
      const box: Box3 = boxOf(gltf.scene);
      viewer.frame(box);
      setState({ loading: false, size: box.getSize(new Vector3()), bytes: bytes.byteLength });
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) setState({ loading: false, error });
    });
    return () => {
      abort.abort();
      viewer.dispose();
    };
  }, [props.nodeId]);

  return (
    <div>
      {state.loading && <Loading what="model" />}
      <ErrorNote error={state.error} prefix="Model" />
      <canvas
        ref={canvasRef}
        className="model-canvas"
        data-testid="model-canvas"
        data-frames="0"
        tabIndex={0}
        role="application"
        aria-label={`3D view of the CAD model ${props.name}`}
        aria-describedby={hint}
      />
      <p id={hint} className="muted viewer-hint">
        {VIEW_HINT}
      </p>
      {state.size && (
        <p className="muted" data-testid="model-size">
          Bounding box {fmt(state.size.x)} × {fmt(state.size.y)} × {fmt(state.size.z)} (model units, glTF Y up);{' '}
          {((state.bytes ?? 0) / 1024).toFixed(0)} KB GLB
        </p>
      )}
    </div>
  );
}
