import crypto from 'node:crypto';

/** Item key prefixes by item type (`CAD-...`, `CS-...`, `PRD-...`); unknown types get `ITM`. */
export const KEY_PREFIX: Record<string, string> = {
  cad_model: 'CAD',
  constraint_set: 'CS',
  prd: 'PRD',
  intent: 'INT',
  stakeholder_need: 'NEED',
  objective: 'OBJ',
  component_selection: 'CMP',
  bom: 'BOM',
  schematic: 'SCH',
  pcb_layout: 'PCB',
  firmware_source: 'FW',
  pinmap: 'PIN',
  test_plan: 'TP',
  manufacturing_file: 'MFG',
  sketch: 'SK',
  technical_drawing: 'DRW',
};

/** Node types whose writes are item revisions (definitions); everything else is an append-only record. */
export const DEFINITION_TYPES = new Set(Object.keys(KEY_PREFIX));

const KEY_RE = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

/** `KEY` or `KEY@n`. */
export interface ItemRef {
  key: string;
  revision?: number;
}

/** Parses `KEY` or `KEY@n`; undefined when the text is neither. */
export function parseItemRef(text: string): ItemRef | undefined {
  const m = /^([^@\s]+)(?:@(\d+))?$/.exec(text.trim());
  if (!m || !KEY_RE.test(m[1])) return undefined;
  return m[2] === undefined ? { key: m[1] } : { key: m[1], revision: Number(m[2]) };
}

export const refOf = (key: string, revision: number) => `${key}@${revision}`;

/** A new, readable, unique key: `CAD-BRACKET-7K2Q` (prefix, a slug of the name, four random characters). */
export function newItemKey(itemType: string, name: string): string {
  const prefix = KEY_PREFIX[itemType] ?? 'ITM';
  const slug = name
    .toUpperCase()
    .normalize('NFKD')
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  const rand = crypto.randomBytes(3).toString('base64url').toUpperCase().replace(/[^A-Z0-9]/g, 'X').slice(0, 4);
  return [prefix, slug, rand].filter(Boolean).join('-');
}
