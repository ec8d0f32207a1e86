import { describe, expect, it } from 'vitest';
import { DrcReportError, parseDrcReport } from '../../../../actors/adapters/eda/drc-report.ts';

// The layout of KiCad 6.0.11's WriteDRCReport (RC_ITEM::ShowReport), as written for the demos and a board without tracks.
const REPORT = `** Drc report for /tmp/x/board/pic.kicad_pcb **
** Created on 2026-11-26 05:36:42 **

** Found 2 DRC violations **
[silk_over_copper]: Silkscreen clipped by solder mask
    Rule: board setup constraints silk; Severity: error
    @(73.6600 mm, 40.6400 mm): Line on Edge.Cuts
    @(171.4500 mm, 36.1950 mm): Line on F.Silkscreen
[via_dangling]: Via is not connected or connected on only one layer
    Local override; Severity: warning
    @(189.8650 mm, -110.4900 mm): Via [/CLOCK-RB6] on top_layer - bottom_layer

** Found 1 unconnected pads **
[unconnected_items]: Missing connection between items
    Local override; Severity: error
    @(87.7570 mm, 125.4760 mm): Through hole pad 1 [/PC-CLOCK-OUT] of R5
    @(87.7570 mm, 121.9200 mm): Through hole pad 1 [/PC-CLOCK-OUT] of R6

** Found 0 Footprint errors **

** End of Report **
`;

describe('parseDrcReport', () => {
  it('reads violations, unconnected items and footprint errors with their rule, severity and positions', () => {
    const r = parseDrcReport(REPORT);
    expect(r.violations).toEqual([
      {
        type: 'silk_over_copper',
        severity: 'error',
        description: 'Silkscreen clipped by solder mask',
        rule: 'board setup constraints silk',
        items: [
          { description: 'Line on Edge.Cuts', position_mm: { x: 73.66, y: 40.64 } },
          { description: 'Line on F.Silkscreen', position_mm: { x: 171.45, y: 36.195 } },
        ],
      },
      {
        type: 'via_dangling',
        severity: 'warning',
        description: 'Via is not connected or connected on only one layer',
        rule: 'Local override',
        items: [
          { description: 'Via [/CLOCK-RB6] on top_layer - bottom_layer', position_mm: { x: 189.865, y: -110.49 } },
        ],
      },
    ]);
    expect(r.unconnected).toHaveLength(1);
    expect(r.unconnected[0]!.items.map((i) => i.description)).toEqual([
      'Through hole pad 1 [/PC-CLOCK-OUT] of R5',
      'Through hole pad 1 [/PC-CLOCK-OUT] of R6',
    ]);
    expect(r.footprint_errors).toEqual([]);
  });

  it('refuses a report that does not read as KiCad writes it', () => {
    expect(() => parseDrcReport(REPORT.replace('Found 2 DRC', 'Found 3 DRC'))).toThrow(
      new DrcReportError('DRC report: "violations" declares 3 items but lists 2'),
    );
    expect(() =>
      parseDrcReport(REPORT.replace('    Local override; Severity: warning\n', '    something else\n')),
    ).toThrow(/DRC report line 10: an unexpected line: "    something else"/);
    expect(() => parseDrcReport('hello\n')).toThrow(/line 1: a line outside an item/);
    expect(() => parseDrcReport('** Drc report for x **\n')).toThrow(/no "\*\* Found N DRC violations \*\*"/);
  });
});
