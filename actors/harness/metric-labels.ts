/**
 * Label values that come from callers (model names, provider ids: set through the selection and route routes) are
 * bounded per metric family (issue 27, finding 11): the first `max` distinct values are kept as they are, every
 * later one is counted under OTHER, so /metrics cannot be grown without end by a client (docs/decisions/0011).
 */

export const OTHER = 'other';

/** A bounded label: `of(value)` is the value while fewer than `max` distinct ones were seen (or it was seen), else OTHER. */
export function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return OTHER;
    seen.add(value);
    return value;
  };
}
