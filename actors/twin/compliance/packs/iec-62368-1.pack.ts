/**
 * IEC 62368-1:2018 (edition 3), Audio/video, information and communication technology equipment, Part 1: Safety
 * requirements. Clause numbers as in the standard and in the IECEE test report form TRF IEC62368_1C. In the EU it is
 * EN IEC 62368-1, harmonised under the Low Voltage Directive 2014/35/EU; in the US it is UL 62368-1.
 *
 * Each item names the evidence that satisfies it; the metric names are the ones a test result or report must state
 * (README "Compliance").
 */
export const IEC_62368_1 = {
  id: 'IEC-62368-1',
  standard: 'IEC 62368-1:2018',
  title: 'Audio/video, information and communication technology equipment - Part 1: Safety requirements',
  product_types: ['hardware_product'],
  markets: ['EU', 'US'],
  items: [
    {
      clause: '5.4.2',
      title: 'Clearances',
      discipline: 'electronics',
      verification_method: 'analysis',
      check: { check: 'compare', kind: 'drc_report', metric: 'error_count', operator: '==', limit: 0 },
      note: 'A DRC report with no error counts only when the board rules hold the clearances 5.4.2 requires for the working voltage',
    },
    {
      clause: '5.4.3',
      title: 'Creepage distances',
      discipline: 'electronics',
      verification_method: 'analysis',
      check: { check: 'compare', kind: 'drc_report', metric: 'error_count', operator: '==', limit: 0 },
      note: 'A DRC report with no error counts only when the board rules hold the creepage distances 5.4.3 requires for the working voltage and material group',
    },
    {
      clause: '5.4.9',
      title: 'Electric strength test',
      discipline: 'electronics',
      verification_method: 'test',
      check: {
        check: 'compare',
        kind: 'test_result',
        metric: 'electric_strength_breakdowns',
        operator: '==',
        limit: 0,
      },
      note: 'A test result stating the number of insulation breakdowns at the test voltage (0: none)',
    },
    {
      clause: '9.3',
      title: 'Touch temperature limits',
      discipline: 'thermal',
      verification_method: 'test',
      check: {
        check: 'compare',
        kind: 'test_result',
        metric: 'touch_temperature_margin_c',
        operator: '>=',
        limit: 0,
        unit: 'C',
      },
      note: 'A test result stating the smallest margin (limit minus measured touch temperature) over the accessible parts',
    },
  ],
} as const;
