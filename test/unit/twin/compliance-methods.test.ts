import { describe, expect, it } from 'vitest';
import { ChecklistPackSchema } from '../../../contracts/compliance.ts';
import {
  disciplineOf,
  evidenceKindsFor,
  methodOf,
  PACKS,
  PRODUCT_TYPE_OF_FLOW,
} from '../../../actors/twin/compliance/index.ts';
import { DesignFlowSchema } from '../../../contracts/flows.ts';

// The written rules of README "Compliance": a requirement's verification method and discipline, and the packs' data.

const c = (over: Partial<Parameters<typeof methodOf>[0]>) => ({
  metric: 'x',
  unit: '',
  verification_method: '',
  target_node_type: null,
  expected_evidence: null,
  ...over,
});

describe('verification method', () => {
  it.each([
    [{ verification_method: 'Analysis' }, 'analysis'],
    [{ verification_method: 'FEA' }, 'analysis'],
    [{ verification_method: 'bench test' }, 'test'],
    [{ verification_method: 'design-review' }, 'review'],
    [{ verification_method: 'demo' }, 'demonstration'],
    [{ verification_method: 'Inspection of the drawing' }, 'inspection'],
    [{ target_node_type: 'test_result' }, 'test'],
    [{ expected_evidence: 'drc_report' }, 'analysis'],
    [{ metric: 'safety_factor' }, 'analysis'],
    [{ metric: 'height_mm' }, 'inspection'],
    [{ metric: 'mass_kg', unit: 'kg' }, 'inspection'],
    [{ metric: 'ripple', unit: 'mV' }, 'test'],
    [{ metric: 'case_temperature', unit: '°C' }, 'analysis'],
    [{ metric: 'unit_cost', unit: 'USD' }, 'review'],
    [{ verification_method: 'whatever', metric: 'height_mm' }, 'inspection'],
  ] as const)('%j is %s', (over, method) => {
    expect(methodOf(c(over))).toBe(method);
  });

  it('a target evidence type narrows the evidence to that kind; otherwise the method decides', () => {
    expect(evidenceKindsFor(c({ target_node_type: 'cad_model' }), 'analysis')).toEqual(['geometry']);
    expect(evidenceKindsFor(c({ target_node_type: 'schematic' }), 'analysis')).toEqual([
      'simulation_result',
      'erc_report',
      'drc_report',
    ]);
    expect(evidenceKindsFor(c({}), 'demonstration')).toEqual(['test_result', 'design_decision']);
  });
});

describe('discipline', () => {
  it.each([
    [{ target_node_type: 'erc_report', unit: 'MPa' }, 'electronics'],
    [{ metric: 'max_displacement_mm' }, 'mechanical'],
    [{ metric: 'drc_error_count' }, 'electronics'],
    [{ unit: 'kN' }, 'mechanical'],
    [{ unit: 'MHz' }, 'electronics'],
    [{ unit: 'degC' }, 'thermal'],
    [{ unit: 'h' }, 'general'],
  ] as const)('%j is %s', (over, discipline) => {
    expect(disciplineOf(c(over))).toBe(discipline);
  });
});

describe('the packs', () => {
  it('are valid data, each clause once, for product types a built-in flow has', () => {
    const types = new Set(Object.values(PRODUCT_TYPE_OF_FLOW));
    for (const pack of PACKS) {
      expect(ChecklistPackSchema.parse(pack)).toEqual(pack);
      expect(new Set(pack.items.map((i) => i.clause)).size).toBe(pack.items.length);
      for (const t of pack.product_types) expect(types.has(t), `${pack.id}: ${t}`).toBe(true);
    }
    expect(Object.keys(PRODUCT_TYPE_OF_FLOW).sort()).toEqual([...DesignFlowSchema.options].sort());
  });
});

describe('names that are Object.prototype members (found by the OpenAPI contract fuzz)', () => {
  it('are words like any other: no method, discipline or evidence kind comes from the prototype', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty']) {
      const fields = c({ verification_method: name, target_node_type: name, expected_evidence: name });
      expect(methodOf(fields)).toBe('review');
      expect(disciplineOf(fields)).toBe('general');
      expect(evidenceKindsFor(fields, 'review').every((k) => typeof k === 'string')).toBe(true);
    }
  });
});
