import type { Placed } from './electronics-select.ts';

/** The `eda.generate_schematic` arguments of a selection: components with their fields, nets by name, no-connects. */
export function schematicArgs(placed: Placed[], outputPath: string, title: string) {
  const nets = new Map<string, string[]>();
  const noConnect: string[] = [];
  const join = (net: string, pin: string) => nets.set(net, [...(nets.get(net) ?? []), pin]);
  const components = placed.map((p) => {
    const pins = p.nets
      ? [
          { number: '1', type: 'passive' as const },
          { number: '2', type: 'passive' as const },
        ]
      : p.part.pins.map(({ number, name, type }) => ({ number, name, type }));
    if (p.nets) p.nets.forEach((net, i) => join(net, `${p.ref}.${i + 1}`));
    else
      for (const pin of p.part.pins) {
        if (pin.net) join(pin.net, `${p.ref}.${pin.number}`);
        else noConnect.push(`${p.ref}.${pin.number}`);
      }
    return {
      reference: p.ref,
      value: p.part.value,
      footprint: p.part.footprint,
      lib_id: p.part.lib_id,
      fields: { Manufacturer: p.part.manufacturer, MPN: p.part.mpn, Datasheet_ref: p.part.datasheet },
      pins,
    };
  });
  return {
    output_path: outputPath,
    overwrite: true,
    title,
    components,
    connections: [...nets].map(([net, pins]) => ({ net, pins })),
    no_connect: noConnect,
  };
}
