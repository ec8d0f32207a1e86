/**
 * EN 55032:2015+A11:2020 (CISPR 32:2015), Electromagnetic compatibility of multimedia equipment, Emission
 * requirements; harmonised under the EMC Directive 2014/30/EU. The limits are the Class B tables of Annex A
 * (equipment for the residential environment).
 *
 * Each item names the evidence that satisfies it: a test result stating the smallest margin to the limit line in dB
 * (positive: below the limit) under the metric named here (README "Compliance").
 */
export const EN_55032 = {
  id: 'EN-55032',
  standard: 'EN 55032:2015+A11:2020',
  title: 'Electromagnetic compatibility of multimedia equipment - Emission requirements',
  product_types: ['hardware_product'],
  markets: ['EU'],
  items: [
    {
      clause: 'Annex A, Table A.4',
      title: 'Radiated emissions up to 1 GHz, Class B',
      discipline: 'electronics',
      verification_method: 'test',
      check: {
        check: 'compare',
        kind: 'test_result',
        metric: 'radiated_emission_margin_db',
        operator: '>=',
        limit: 0,
        unit: 'dB',
      },
      note: '',
    },
    {
      clause: 'Annex A, Table A.5',
      title: 'Radiated emissions above 1 GHz, Class B',
      discipline: 'electronics',
      verification_method: 'test',
      check: {
        check: 'compare',
        kind: 'test_result',
        metric: 'radiated_emission_above_1ghz_margin_db',
        operator: '>=',
        limit: 0,
        unit: 'dB',
      },
      note: '',
    },
    {
      clause: 'Annex A, Table A.10',
      title: 'Conducted emissions from the AC mains power port, Class B',
      discipline: 'electronics',
      verification_method: 'test',
      check: {
        check: 'compare',
        kind: 'test_result',
        metric: 'conducted_emission_margin_db',
        operator: '>=',
        limit: 0,
        unit: 'dB',
      },
      note: 'Only for equipment with an AC mains power port',
    },
  ],
} as const;
