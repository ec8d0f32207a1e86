/**
 * ISO 2768-1:1989 (general tolerances for linear and angular dimensions, classes f, m, c, v) and ISO 2768-2:1989
 * (general geometrical tolerances, classes H, K, L). Each part's clause "Indications on drawings" asks the drawing to
 * state them in or near its title block, e.g. `ISO 2768-m` or `ISO 2768-mK` (clause titles cited, numbers left out). An international drawing
 * standard: no market of its own.
 *
 * The evidence is the current revision of a technical_drawing item whose `general_tolerance` property states the
 * class (README "Compliance").
 */
export const ISO_2768 = {
  id: 'ISO-2768',
  standard: 'ISO 2768-1:1989 / ISO 2768-2:1989',
  title: 'General tolerances',
  product_types: ['mechanical_part', 'hardware_product'],
  markets: [],
  items: [
    {
      clause: 'ISO 2768-1, Indications on drawings',
      title: 'Drawing states the general tolerance class for linear and angular dimensions (f, m, c or v)',
      discipline: 'mechanical',
      verification_method: 'inspection',
      check: {
        check: 'states',
        kind: 'technical_drawing',
        property: 'general_tolerance',
        pattern: '^\\s*ISO ?2768-[fmcv][HKL]?\\s*$',
      },
      note: '',
    },
    {
      clause: 'ISO 2768-2, Indications on drawings',
      title: 'Drawing states the general geometrical tolerance class (H, K or L)',
      discipline: 'mechanical',
      verification_method: 'inspection',
      check: {
        check: 'states',
        kind: 'technical_drawing',
        property: 'general_tolerance',
        pattern: '^\\s*ISO ?2768-[fmcv][HKL]\\s*$',
      },
      note: '',
    },
  ],
} as const;
