/**
 * The field colour scale: "turbo" (a rainbow with even lightness steps, blue = low, red = high), as a 9-stop table
 * interpolated linearly. Used for the vertex colours and for the legend's CSS gradient, so both show the same map.
 */
const STOPS: [number, number, number][] = [
  [0.19, 0.07, 0.23],
  [0.27, 0.36, 0.85],
  [0.16, 0.64, 0.98],
  [0.1, 0.87, 0.75],
  [0.43, 0.99, 0.38],
  [0.8, 0.92, 0.2],
  [0.99, 0.65, 0.18],
  [0.89, 0.3, 0.04],
  [0.48, 0.02, 0.01],
];

/** Writes the colour of t (0..1, clamped) into out[at..at+2] as linear 0..1 floats. */
export function colourAt(t: number, out: Float32Array, at: number): void {
  const x = (t <= 0 ? 0 : t >= 1 ? 1 : t) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = STOPS[i];
  const b = STOPS[i + 1];
  out[at] = a[0] + (b[0] - a[0]) * f;
  out[at + 1] = a[1] + (b[1] - a[1]) * f;
  out[at + 2] = a[2] + (b[2] - a[2]) * f;
}

/** Colours (r,g,b per vertex) of `values` between min and max. */
export function colours(values: Float32Array, min: number, max: number, out?: Float32Array): Float32Array {
  const c = out ?? new Float32Array(values.length * 3);
  const span = max - min || 1;
  for (let i = 0; i < values.length; i++) colourAt((values[i] - min) / span, c, i * 3);
  return c;
}

/** The same map as a CSS linear-gradient, left (min) to right (max). */
export function cssGradient(): string {
  const stops = STOPS.map(
    (s, i) => `rgb(${s.map((v) => Math.round(v * 255)).join(' ')}) ${((i / (STOPS.length - 1)) * 100).toFixed(1)}%`,
  );
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
