import type { CompiledIntent, IntentParameters } from '../../contracts/intent.ts';
import { findMaterial } from './materials.ts';

const NUM = '(\\d+(?:[.,]\\d+)?)';
const TO_MM: Record<string, number> = { mm: 1, cm: 10, m: 1000 };
const PART_NOUNS =
  /\b(bracket|beam|plate|shaft|housing|enclosure|mount|frame|lever|arm|flange|hinge|clip|cantilever|spacer|bushing|gear|pulley|rod|tube|panel|chassis|gusset|support)s?\b/i;

const num = (s: string) => Number(s.replace(',', '.'));

/** `200 x 20 x 10 mm` (also `×`, `by`, cm, m) as millimetres. */
export function extractDimensions(text: string): number[] | null {
  const m = new RegExp(
    `${NUM}\\s*(?:mm|cm|m)?\\s*(?:x|×|by)\\s*${NUM}(?:\\s*(?:mm|cm|m)?\\s*(?:x|×|by)\\s*${NUM})?\\s*(mm|cm|m)\\b`,
    'i',
  ).exec(text);
  if (!m) return null;
  const f = TO_MM[m[4].toLowerCase()];
  return [m[1], m[2], m[3]].filter((x): x is string => x !== undefined).map((x) => num(x) * f);
}

/** `100 N at the tip`, `2 kN`, with the location phrase after it when there is one. */
export function extractLoads(text: string): IntentParameters['loads'] {
  const re = new RegExp(
    `${NUM}\\s*(kN|N)\\b((?:\\s+(?:downward|downwards|upward|upwards|vertical|horizontal|axial|lateral))?(?:\\s+(?:at|on|to)\\s+(?:the\\s+)?([a-z -]+?))?)(?=[,.;]|\\s+(?:and|with|safety)\\b|$)`,
    'gi',
  );
  const out: IntentParameters['loads'] = [];
  for (const m of text.matchAll(re)) {
    const magnitude_n = num(m[1]) * (m[2] === 'kN' ? 1000 : 1);
    const dir = /downward|upward|vertical|horizontal|axial|lateral/i.exec(m[3] ?? '')?.[0].toLowerCase() ?? null;
    out.push({ magnitude_n, location: (m[4] ?? 'unspecified').trim(), direction: dir, text: m[0].trim() });
  }
  return out;
}

export function extractSafetyFactor(text: string): number | null {
  const m = new RegExp(`(?:safety\\s+factor|factor\\s+of\\s+safety|\\bSF|\\bFoS)\\s*(?:of|=|:)?\\s*${NUM}`, 'i').exec(
    text,
  );
  return m ? num(m[1]) : null;
}

export function extractBudget(text: string): IntentParameters['budget'] {
  const m = new RegExp(`(?:(\\$|USD|EUR|€|£|GBP)\\s*${NUM}|${NUM}\\s*(USD|EUR|GBP|dollars|euros))`, 'i').exec(text);
  if (!m) return null;
  const cur = (m[1] ?? m[4]).toUpperCase();
  const currency =
    cur === '$' || cur === 'DOLLARS' ? 'USD' : cur === '€' || cur === 'EUROS' ? 'EUR' : cur === '£' ? 'GBP' : cur;
  return { amount: num(m[2] ?? m[3]), currency };
}

/** The object to design: the part noun with the words before it that are not numbers, materials or articles. */
export function extractGoalObject(text: string): string | null {
  const m = PART_NOUNS.exec(text);
  if (!m) return null;
  const before = text.slice(0, m.index).split(/\s+/).slice(-3);
  const adjectives = before.filter(
    (w) =>
      /^[a-z-]+$/i.test(w) &&
      !/^(a|an|the|design|make|build|steel|aluminium|aluminum|stainless|titanium|of|for|me)$/i.test(w),
  );
  // A run of part nouns names one object: "cantilever bracket".
  const nouns = [m[0]];
  for (const w of text
    .slice(m.index + m[0].length)
    .split(/\s+/)
    .filter(Boolean)) {
    if (!new RegExp(`^${PART_NOUNS.source}$`, 'i').test(w)) break;
    nouns.push(w);
  }
  return [...adjectives, ...nouns].join(' ').toLowerCase();
}

/**
 * The intent compiler (deterministic, no model): goal, dimensions, loads, material, safety factor, budget and
 * deliverables from the request text and context; what is missing becomes an unknown, blocking when the flow cannot
 * proceed without it. Context values (`material`, `safety_factor`, `dimensions_mm`, `budget`) override the text.
 */
export function compileIntent(request: string, context: Record<string, unknown> = {}): CompiledIntent {
  const material = findMaterial(typeof context.material === 'string' ? context.material : request);
  const parameters: IntentParameters = {
    dimensions_mm: Array.isArray(context.dimensions_mm)
      ? (context.dimensions_mm as number[])
      : extractDimensions(request),
    loads: extractLoads(request),
    material: material
      ? {
          name: material.name,
          solver_material: material.solver_material,
          yield_mpa: material.yield_mpa,
          modulus_mpa: material.modulus_mpa,
          poisson: material.poisson,
          density_kg_m3: material.density_kg_m3,
        }
      : null,
    safety_factor: typeof context.safety_factor === 'number' ? context.safety_factor : extractSafetyFactor(request),
    budget: extractBudget(request),
  };
  const object = extractGoalObject(request);
  const unknowns: CompiledIntent['unknowns'] = [];
  const assumptions: string[] = [];
  if (!object) unknowns.push({ question: 'What part or product should be designed?', blocking: true });
  if (!parameters.dimensions_mm)
    unknowns.push({ question: 'What are the overall dimensions (envelope) in mm?', blocking: true });
  if (!parameters.loads.length) unknowns.push({ question: 'What loads act on the part, and where?', blocking: false });
  if (!parameters.material) unknowns.push({ question: 'Which material should the part be made of?', blocking: true });
  if (parameters.safety_factor === null) {
    unknowns.push({ question: 'What safety factor is required?', blocking: false });
    assumptions.push('safety factor 1.5 until one is stated');
  }
  if (!parameters.budget) unknowns.push({ question: 'Is there a cost target?', blocking: false });
  const sf = parameters.safety_factor ?? 1.5;
  for (const l of parameters.loads)
    if (l.location === 'tip' || l.location === 'end' || l.location === 'free end')
      assumptions.push(
        `the ${l.location} load acts perpendicular to the longest dimension, with the opposite end fixed`,
      );
  const constraints: CompiledIntent['constraints'] = [
    ...(parameters.dimensions_mm
      ? [{ category: 'geometry', statement: `overall envelope ${parameters.dimensions_mm.join(' x ')} mm` }]
      : []),
    ...parameters.loads.map((l) => ({
      category: 'load',
      statement: `carries ${l.magnitude_n} N at the ${l.location}`,
    })),
    ...(parameters.material
      ? [
          {
            category: 'material',
            statement: `${parameters.material.name} (yield ${parameters.material.yield_mpa} MPa)`,
          },
        ]
      : []),
    ...(parameters.safety_factor !== null
      ? [{ category: 'safety', statement: `safety factor ${parameters.safety_factor} against yield` }]
      : []),
    ...(parameters.budget
      ? [{ category: 'cost', statement: `budget ${parameters.budget.amount} ${parameters.budget.currency}` }]
      : []),
  ].sort((a, b) => a.category.localeCompare(b.category));
  const allowable = parameters.material ? Math.round((parameters.material.yield_mpa / sf) * 10) / 10 : null;
  return {
    goal_type: object ? 'design_part' : 'unspecified',
    goal_object: object ?? 'unspecified',
    immediate_request: request.trim(),
    underlying_objective: object
      ? `a ${object} that does its job safely${parameters.loads.length ? ' under the stated loads' : ''}`
      : 'not stated',
    constraints,
    success_criteria: [
      ...(allowable !== null && parameters.loads.length
        ? [
            {
              criterion: `peak von Mises stress at most yield / safety factor`,
              metric: 'max_von_mises_mpa',
              target: `<= ${allowable} MPa`,
            },
          ]
        : []),
      ...(parameters.dimensions_mm
        ? [
            {
              criterion: 'fits the stated envelope',
              metric: 'envelope_mm',
              target: parameters.dimensions_mm.join(' x '),
            },
          ]
        : []),
    ],
    preferences: /\blight(?:weight)?\b/i.test(request) ? ['low mass'] : [],
    assumptions,
    unknowns,
    requested_deliverables: ['cad_model', ...(parameters.loads.length ? ['simulation_result'] : []), 'design_decision'],
    parameters,
    facts: {
      route: 'mechanical',
      loads_known: parameters.loads.length > 0,
      budget_stated: parameters.budget !== null,
      material_known: parameters.material !== null,
      target_maturity: 'prototype',
    },
  };
}
