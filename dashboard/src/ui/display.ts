/**
 * Numbers for a person (issue 28 point 5, decision 0072): rounded for display only, the API and the twin keep the
 * stored value exactly. Twelve significant digits drop binary floating-point noise (0.1 * 0.54 is
 * 0.054000000000000006) and keep every digit anyone typed or an engine printed.
 */
const DIGITS = 12;

export function displayNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(DIGITS)));
}

/** A JSON value as text, each number in it rounded as `displayNumber` does; strings stay as they are. */
export function displayJson(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(DIGITS)) : x,
    ) ?? ''
  );
}
