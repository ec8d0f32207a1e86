import zlib from 'node:zlib';
import { SimFieldPayloadSchema, type SimFieldPayload } from '../../../contracts/simulation.ts';
import { toValidationIssues } from '../../../contracts/errors.ts';
import { ToolError } from '../kit/tool.ts';

/** A validated field payload with its stored (gzip) bytes. */
export interface CheckedField {
  payload: SimFieldPayload;
  gz: Buffer;
}

const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

/**
 * Checks that bytes are a `service.sim_field` v1 payload (gzip-compressed JSON; plain JSON is accepted and gzipped
 * deterministically). Anything else is refused before any result is created (SPEC Twin rule 1).
 */
export function checkSimField(bytes: Buffer): CheckedField {
  let json: Buffer;
  try {
    json = isGzip(bytes) ? zlib.gunzipSync(bytes) : bytes;
  } catch (err) {
    throw new ToolError(
      `the field is not a service.sim_field payload: gzip data is corrupt (${(err as Error).message}); no result was recorded`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
  } catch (err) {
    throw new ToolError(
      `the field is not a service.sim_field payload: not JSON (${(err as Error).message}); no result was recorded`,
    );
  }
  const parsed = SimFieldPayloadSchema.safeParse(value);
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error).slice(0, 10);
    throw new ToolError(
      `the field is not a service.sim_field v1 payload: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}; no result was recorded`,
      {
        validation_errors: issues,
      },
    );
  }
  const gz = isGzip(bytes) ? bytes : zlib.gzipSync(json, { level: 6 });
  return { payload: parsed.data, gz };
}

/** `{quantity: {min, max}}` of a payload, for result metadata and listings. */
export function fieldRanges(p: SimFieldPayload): Record<string, { min: number; max: number }> {
  return Object.fromEntries(Object.entries(p.fields).map(([k, f]) => [k, { min: f.min, max: f.max }]));
}

/** Fixture markers of a payload, the default `fixtures` of a recorded result. */
export function fixturesOf(p: SimFieldPayload) {
  return p.markers.filter((m) => m.kind === 'fixture');
}

export function loadsOf(p: SimFieldPayload) {
  return p.markers.filter((m) => m.kind === 'load');
}
