/** The schematic as the EDA tools see it: every sheet instance of a hierarchy with its items in sheet coordinates (mm). */
export interface Point {
  x: number;
  y: number;
}

export const PIN_TYPES = [
  'input',
  'output',
  'bidirectional',
  'tri_state',
  'passive',
  'free',
  'unspecified',
  'power_in',
  'power_out',
  'open_collector',
  'open_emitter',
  'no_connect',
] as const;
export type PinType = (typeof PIN_TYPES)[number];

/** One sheet instance: `path` is KiCad's uuid path ('/' for the root), `names` the human one ('/', '/modul/'). */
export interface SheetInstance {
  path: string;
  names: string;
  file: string;
  page?: string;
  /** The parent's path and the sheet symbol (in the parent) that instantiates this one; absent for the root. */
  parent?: string;
  sheetUuid?: string;
}

export interface PlacedPin {
  number: string;
  name: string;
  type: PinType;
  /** Drawn hidden (KiCad 6-8 `hide` atom, KiCad 9 `(hide yes)`). */
  hidden: boolean;
  /**
   * The global net a power input names (schematic.ts): a hidden power_in pin, or any power_in pin of a power symbol,
   * joins every pin naming the same net anywhere in the hierarchy.
   */
  net?: string;
  at: Point;
}

export interface PlacedSymbol {
  uuid: string;
  sheet: string;
  libId: string;
  reference: string;
  value: string;
  footprint: string;
  unit: number;
  /** Every property of the instance (Reference, Value, Footprint, Datasheet, Manufacturer, MPN, Spice_* ...). */
  fields: Record<string, string>;
  inBom: boolean;
  onBoard: boolean;
  /** A power symbol (lib symbol flagged `power`): its pin names a global net. */
  power: boolean;
  at: Point;
  pins: PlacedPin[];
}

export type LabelKind = 'local' | 'global' | 'hierarchical';

export interface Label {
  kind: LabelKind;
  text: string;
  at: Point;
  sheet: string;
  /** The electrical shape of global and hierarchical labels (input, output, bidirectional, tri_state, passive). */
  shape?: string;
}

/** A sheet pin: on the sheet symbol in the parent `sheet`, joined to the hierarchical label `name` in `child`. */
export interface SheetPin {
  name: string;
  shape: string;
  at: Point;
  sheet: string;
  child: string;
}

export interface Segment {
  a: Point;
  b: Point;
}

export interface SheetContent {
  instance: SheetInstance;
  symbols: PlacedSymbol[];
  wires: Segment[];
  buses: Segment[];
  busEntries: Segment[];
  junctions: Point[];
  noConnects: Point[];
  labels: Label[];
  sheetPins: SheetPin[];
}

export interface Schematic {
  /** The root file as given (workspace-relative). */
  root: string;
  title?: string;
  sheets: SheetContent[];
  /** Files read, each once (a sheet file used twice is read once). */
  files: string[];
  /** Bus aliases of every file read (`(bus_alias NAME (members ...))`): name to members. */
  busAliases?: Map<string, string[]>;
}
