/**
 * Pure key rules of the twin that its tool adapter shares (no I/O): which node types are item revisions, their key
 * prefixes, and where a node's named file is stored.
 */

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

/** The object key of a node's named file (ARCHITECTURE "Data": `work-products/<node_id>/<name>`). */
export const objectKeyOf = (nodeId: string, name: string) => `work-products/${nodeId}/${name}`;
