/** The fields of KiCad 7's simulation model: a symbol carrying one is not migrated. */
const SIM_FIELDS = ['Sim.Device', 'Sim.Type', 'Sim.Pins', 'Sim.Params'];

/**
 * The Value KiCad 9 shows for a symbol with KiCad 6's simulation fields (SIM_MODEL::MigrateSimModel, run on every
 * load; decision 0162): a V or I source whose model (Spice_Model, else its Value unless its reference starts with the
 * source letter) is a lone DC value, with no library, shows that value (`dc 2.345` is 2.345; `1Meg` is written 1M as
 * KiCad's SI reading does). Every other symbol keeps `value`.
 */
export function migratedSimValue(fields: Readonly<Record<string, string>>, value: string, reference: string): string {
  if (SIM_FIELDS.some((f) => f in fields)) return value;
  const type = fields.Spice_Primitive?.trim();
  if ((type !== 'V' && type !== 'I') || fields.Spice_Lib_File?.trim()) return value;
  const fromValue = fields.Spice_Model === undefined;
  if (fromValue && reference.startsWith(type)) return value;
  const model = (fromValue ? value : fields.Spice_Model!).replace(/([^a-z])(M)([eE])([gG])($|[^a-z])/g, '$1$2$5');
  const tokens = model
    .trim()
    .split(/[() ]+/)
    .filter(Boolean);
  return tokens.length === 2 && tokens[0]!.toUpperCase() === 'DC' ? tokens[1]! : value;
}
