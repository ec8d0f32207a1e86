/**
 * The result field viewer (loaded lazily: this module pulls three.js in). The surface coloured by the chosen scalar
 * with a legend (min and max with units), the deformed shape at a scale whose initial value makes the largest
 * deflection about 5 % of the part size (labelled slider and number), fixture and load markers, the peak marked.
 * Renders on demand only: on a camera move, a scale or quantity change, or a resize.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { boxOf, createViewer, VIEW_HINT, type Viewer } from './scene.ts';
import { buildFieldObjects, FIXTURE_COLOUR, LOAD_COLOUR, PEAK_COLOUR, type FieldObjects } from './field-mesh.ts';
import { cssGradient } from './colormap.ts';
import { fmt, initialScale, type FieldData } from './field-data.ts';

export interface FieldViewerProps {
  field: FieldData;
  /** The solver's recorded peak for a quantity (e.g. the result's max_von_mises_mpa), shown instead of the field's. */
  recordedPeak?: Partial<Record<string, number>>;
}

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

export default function FieldViewer({ field, recordedPeak }: FieldViewerProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewerRef = useRef<Viewer | null>(null);
  const objectsRef = useRef<FieldObjects | null>(null);
  const [quantity, setQuantity] = useState(field.fields[0]?.name ?? '');
  const scale0 = useMemo(() => initialScale(field), [field]);
  const [scale, setScale] = useState(scale0);
  const ids = { q: useId(), s: useId(), hint: useId() };
  const scalar = field.fields.find((x) => x.name === quantity) ?? field.fields[0];

  useEffect(() => {
    const canvas = canvasRef.current!;
    performance.mark('viewer-mounted');
    const viewer = createViewer(canvas, 'z');
    performance.mark('viewer-context');
    const objects = buildFieldObjects(field);
    performance.mark('viewer-objects');
    viewer.scene.add(objects.group);
    viewerRef.current = viewer;
    objectsRef.current = objects;
    viewer.frame(boxOf(objects.group));
    return () => {
      viewer.dispose();
      viewerRef.current = null;
      objectsRef.current = null;
    };
  }, [field]);

  useEffect(() => {
    if (scalar) objectsRef.current?.setQuantity(scalar);
    viewerRef.current?.requestRender();
  }, [scalar]);
  useEffect(() => {
    objectsRef.current?.setScale(Number.isFinite(scale) && scale >= 0 ? scale : 0);
    viewerRef.current?.requestRender();
  }, [scale, field]);

  const peakValue = scalar ? (recordedPeak?.[scalar.name] ?? scalar.peak.value) : undefined;
  const deflection = field.maxDisplacement * scale;
  const sliderMax = scale0 > 0 ? scale0 * 5 : 1;

  return (
    <div className="field-viewer">
      <div className="toolbar">
        {field.fields.length > 0 && (
          <label htmlFor={ids.q}>
            Colour by{' '}
            <select id={ids.q} value={scalar?.name} onChange={(e) => setQuantity(e.target.value as typeof quantity)}>
              {field.fields.map((q) => (
                <option key={q.name} value={q.name}>
                  {q.label} ({q.unit})
                </option>
              ))}
            </select>
          </label>
        )}
        {field.displacement.length > 0 && (
          <>
            <label htmlFor={ids.s}>Deformation scale</label>
            <input
              id={ids.s}
              type="range"
              min={0}
              max={sliderMax}
              step={sliderMax / 500}
              value={Math.min(scale, sliderMax)}
              onChange={(e) => setScale(Number(e.target.value))}
              data-testid="deformation-slider"
            />
            <input
              aria-label="Deformation scale factor"
              type="number"
              min={0}
              step="any"
              value={scale}
              onChange={(e) => setScale(Number(e.target.value))}
              style={{ width: '7em' }}
              data-testid="deformation-scale"
            />
            <span className="muted">
              × (largest deflection {fmt(field.maxDisplacement)} {field.units.displacement} drawn as {fmt(deflection)}{' '}
              {field.units.length})
            </span>
            <button type="button" onClick={() => setScale(scale0)}>
              Reset scale
            </button>
            <button type="button" onClick={() => setScale(1)}>
              True scale
            </button>
          </>
        )}
      </div>
      <canvas
        ref={canvasRef}
        className="field-canvas"
        data-testid="field-canvas"
        data-frames="0"
        tabIndex={0}
        role="application"
        aria-label={`3D view of the ${scalar?.label ?? 'result'} field, ${field.vertexCount} vertices`}
        aria-describedby={ids.hint}
      />
      <p id={ids.hint} className="muted viewer-hint">
        {VIEW_HINT}
      </p>
      {scalar && (
        <div className="field-legend" data-testid="field-legend" data-min={scalar.min} data-max={scalar.max}>
          <span>
            {scalar.label} ({scalar.unit})
          </span>
          <span data-testid="legend-min">
            min {fmt(scalar.min)} {scalar.unit}
          </span>
          <span className="legend-bar" style={{ background: cssGradient() }} aria-hidden="true" />
          <span data-testid="legend-max">
            max {fmt(scalar.max)} {scalar.unit}
          </span>
        </div>
      )}
      <ul className="viewer-key">
        {scalar && peakValue !== undefined && (
          <li>
            <Swatch colour={PEAK_COLOUR} />{' '}
            <strong data-testid="field-peak" data-value={peakValue}>
              peak {fmt(peakValue)} {scalar.unit}
            </strong>{' '}
            <span className="muted">
              at ({scalar.peak.position.map(fmt).join(', ')}) {field.units.length}
            </span>
          </li>
        )}
        {field.markers.map((m, i) => (
          <li key={i}>
            <Swatch colour={m.kind === 'fixture' ? FIXTURE_COLOUR : LOAD_COLOUR} /> {m.kind} {m.label}
            {m.kind === 'load' && (
              <span className="muted">
                {' '}
                ({m.vector.map(fmt).join(', ')}) {m.unit}
              </span>
            )}
          </li>
        ))}
        <li className="muted">
          {field.vertexCount.toLocaleString()} vertices, {field.triangleCount.toLocaleString()} triangles
          {field.decimation.applied
            ? `, simplified from ${field.decimation.source_triangle_count.toLocaleString()} triangles`
            : ''}
          ; {(field.jsonChars / 1024).toFixed(0)} KB of JSON
        </li>
      </ul>
    </div>
  );
}

const Swatch = (props: { colour: number }) => (
  <span className="swatch" style={{ background: hex(props.colour) }} aria-hidden="true" />
);
