import { describe, expect, it } from 'vitest';
import { toListingEntry } from '../../../actors/twin/sim-views.ts';
import { SimResultEntrySchema } from '../../../contracts/simulation-views.ts';
import type { NodeRow } from '../../../actors/twin/nodes.store.ts';

const node = (properties: Record<string, unknown>): NodeRow =>
  ({
    id: 'r1',
    project_id: 'p',
    node_type: 'simulation_result',
    name: 'fea',
    properties,
    stale: false,
    stale_reason: null,
    created_at: new Date('2026-01-02T03:04:05.678Z'),
  }) as NodeRow;

describe('simulation result listing entry', () => {
  it('reports a failed field upload as no field with its error, the numbers riding along', () => {
    const e = toListingEntry(
      node({
        max_von_mises_mpa: 12,
        field_stored: false,
        field_store_error: 'the field could not be stored: disk full',
        field_quantities: ['von_mises'],
      }),
      undefined,
    );
    expect(SimResultEntrySchema.parse(e)).toMatchObject({
      max_von_mises_mpa: 12,
      hasField: false,
      fieldStoreError: 'the field could not be stored: disk full',
      fieldContentHash: null,
      fieldSizeBytes: null,
    });
    expect(e.created_at).toBe('2026-01-02T03:04:05.678Z');
  });

  it('drops malformed ranges and markers, and marks a pinned geometry that is no longer its head not current', () => {
    const e = toListingEntry(
      node({
        field_stored: true,
        field_content_hash: 'a'.repeat(64),
        field_size_bytes: 10,
        field_ranges: { von_mises: { min: 0, max: 5 }, bad: { min: 'x' } },
        fixtures: [{ label: 'f' }, 3],
        analysed_geometry: { node_id: 'g1', revision: 1, name: 'Beam', content_hash: null },
      }),
      { id: 'g1', item_key: 'CAD-BEAM-AAAA', revision: 1, head_node_id: 'g2' },
    );
    expect(SimResultEntrySchema.parse(e)).toMatchObject({
      hasField: true,
      fieldRanges: { von_mises: { min: 0, max: 5 } },
      fixtures: [{ label: 'f' }],
      analysedGeometry: { node_id: 'g1', key: 'CAD-BEAM-AAAA', ref: 'CAD-BEAM-AAAA@1', current: false },
    });
    expect(e.fieldRanges).not.toHaveProperty('bad');
  });
});
