/**
 * The 3D pages' scene setup (three.js is loaded only by /sim and /files): a WebGL renderer on a given canvas that
 * renders on demand (never a continuous loop), a perspective camera framed on a box, OrbitControls (orbit, pan,
 * zoom) and keyboard moves. After each render the canvas's `data-frames` counts the frames drawn, and the first one
 * leaves the performance mark `viewer-first-frame` (the dashboard bench reads it).
 */
import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  PerspectiveCamera,
  Scene,
  Spherical,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export interface Viewer {
  scene: Scene;
  camera: PerspectiveCamera;
  renderer: WebGLRenderer;
  controls: OrbitControls;
  /** Asks for one frame on the next animation frame (several asks in one frame draw once). */
  requestRender(): void;
  /** Puts the camera on a three-quarter view of the box and renders. */
  frame(box: Box3): void;
  /** The view `frame` chose last (the Home key returns to it). */
  resetView(): void;
  dispose(): void;
}

/** The clear colour: the page's --bg-2, so light or dark with the theme (tests read it as the background). */
export function clearColour(): Color {
  // The variable holds light-dark(...): a probe element resolves it to the theme's rgb().
  const probe = document.createElement('span');
  probe.style.color = 'var(--bg-2)';
  document.body.append(probe);
  const css = getComputedStyle(probe).color;
  probe.remove();
  return new Color(/^rgb\(\d+, \d+, \d+\)$/.test(css) ? css : '#f5f6f8');
}

/** `up` is the model's up axis: Z for solver fields (mm, z = height), Y for glTF models. */
export function createViewer(canvas: HTMLCanvasElement, up: 'z' | 'y' = 'z'): Viewer {
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setClearColor(clearColour(), 1);
  const scene = new Scene();
  const camera = new PerspectiveCamera(35, 1, 0.1, 1000);
  if (up === 'z') camera.up.set(0, 0, 1);
  scene.add(new AmbientLight(0xffffff, 1.1));
  const key = new DirectionalLight(0xffffff, 1.6);
  key.position.set(0.4, 0.3, 1);
  camera.add(key); // the light follows the camera, so every side is lit when seen
  scene.add(camera);

  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false; // damping needs a continuous loop; rendering is on demand
  controls.screenSpacePanning = true;

  let frames = 0;
  let pending = 0;
  const render = () => {
    pending = 0;
    if (frames === 0) performance.mark('viewer-first-render');
    renderer.render(scene, camera);
    frames += 1;
    canvas.dataset.frames = String(frames);
    if (frames === 1) performance.mark('viewer-first-frame');
  };
  const requestRender = () => {
    if (!pending) pending = requestAnimationFrame(render);
  };
  controls.addEventListener('change', requestRender);

  const resize = () => {
    const w = canvas.clientWidth || 1;
    const h = canvas.clientHeight || 1;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    requestRender();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  resize();

  let home: { position: Vector3; target: Vector3 } | null = null;
  const resetView = () => {
    if (!home) return;
    camera.position.copy(home.position);
    controls.target.copy(home.target);
    controls.update();
    requestRender();
  };
  const frame = (box: Box3) => {
    const size = box.getSize(new Vector3()).length() || 1;
    const center = box.getCenter(new Vector3());
    const dir = (up === 'z' ? new Vector3(0.55, -1, 0.6) : new Vector3(0.8, 0.6, 1)).normalize();
    // Fit the box's corners (not its bounding sphere): a long thin part fills the view.
    camera.position.copy(center).add(dir);
    camera.lookAt(center);
    camera.updateMatrixWorld();
    const tanV = Math.tan((camera.fov * Math.PI) / 360);
    const tanH = tanV * camera.aspect;
    let dist = 0;
    for (let i = 0; i < 8; i++) {
      const c = new Vector3(
        i & 1 ? box.max.x : box.min.x,
        i & 2 ? box.max.y : box.min.y,
        i & 4 ? box.max.z : box.min.z,
      );
      const v = c.applyMatrix4(camera.matrixWorldInverse);
      const toward = v.z + 1; // how far the corner stands out of the centre's depth toward the camera
      dist = Math.max(dist, toward + Math.abs(v.x) / tanH, toward + Math.abs(v.y) / tanV);
    }
    dist = Math.max(dist * 1.1, size * 0.05);
    camera.near = dist / 100;
    camera.far = dist + size * 10;
    camera.updateProjectionMatrix();
    home = { position: center.clone().addScaledVector(dir, dist), target: center };
    controls.minDistance = size / 50;
    controls.maxDistance = size * 8;
    resetView();
  };

  const onKey = (e: KeyboardEvent) => {
    if (keyMove(e, camera, controls)) {
      e.preventDefault();
      controls.update();
      requestRender();
    } else if (e.key === 'Home' || e.key === '0') {
      e.preventDefault();
      resetView();
    }
  };
  canvas.addEventListener('keydown', onKey);

  return {
    scene,
    camera,
    renderer,
    controls,
    requestRender,
    frame,
    resetView,
    dispose() {
      canvas.removeEventListener('keydown', onKey);
      observer.disconnect();
      if (pending) cancelAnimationFrame(pending);
      controls.dispose();
      scene.traverse((o: Object3D) => disposeObject(o));
      renderer.dispose();
    },
  };
}

/** The visible hint under each canvas: the mouse and the keys. */
export const VIEW_HINT =
  'Drag to orbit, right-drag or Shift+drag to pan, wheel to zoom. Keys (canvas focused): arrows orbit, Shift+arrows pan, + and - zoom, Home resets the view.';

const STEP = Math.PI / 24;

/** Arrows orbit, Shift+arrows pan, + and - zoom. Answers whether the key moved the camera. */
function keyMove(e: KeyboardEvent, camera: PerspectiveCamera, controls: OrbitControls): boolean {
  const offset = camera.position.clone().sub(controls.target);
  if (e.key === '+' || e.key === '=' || e.key === '-' || e.key === '_') {
    const f = e.key === '+' || e.key === '=' ? 0.85 : 1 / 0.85;
    camera.position.copy(controls.target).add(offset.multiplyScalar(f));
    return true;
  }
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!d) return false;
  if (e.shiftKey) {
    const right = new Vector3().setFromMatrixColumn(camera.matrix, 0);
    const upv = new Vector3().setFromMatrixColumn(camera.matrix, 1);
    const step = offset.length() * 0.05;
    const move = right.multiplyScalar(-d[0] * step).add(upv.multiplyScalar(d[1] * step));
    camera.position.add(move);
    controls.target.add(move);
    return true;
  }
  // Orbit about the camera's up axis: work in a frame where `up` is +Y, as Spherical expects.
  const toY = camera.up.z === 1 ? (v: Vector3) => v.set(v.x, v.z, -v.y) : (v: Vector3) => v;
  const fromY = camera.up.z === 1 ? (v: Vector3) => v.set(v.x, -v.z, v.y) : (v: Vector3) => v;
  const s = new Spherical().setFromVector3(toY(offset));
  s.theta -= d[0] * STEP;
  s.phi = Math.min(Math.PI - 0.01, Math.max(0.01, s.phi + d[1] * STEP));
  camera.position.copy(controls.target).add(fromY(new Vector3().setFromSpherical(s)));
  return true;
}

/** Frees an object's geometry and materials (the renderer keeps GPU copies until told). */
export function disposeObject(o: Object3D): void {
  const m = o as Object3D & { geometry?: { dispose(): void }; material?: { dispose(): void } | { dispose(): void }[] };
  m.geometry?.dispose();
  if (Array.isArray(m.material)) m.material.forEach((x) => x.dispose());
  else m.material?.dispose();
}

/** The box of an object in world space. */
export const boxOf = (o: Object3D) => new Box3().setFromObject(o);
