import { ChecklistPackSchema, type ChecklistPack } from '../../../../contracts/compliance.ts';
import { EN_55032 } from './en-55032.pack.ts';
import { IEC_62368_1 } from './iec-62368-1.pack.ts';
import { ISO_2768 } from './iso-2768.pack.ts';

/**
 * The checklist packs, kept as data and checked against `ChecklistPackSchema` when this module loads (a pattern that
 * is no regular expression fails here too, never in a request).
 */
export const PACKS: readonly ChecklistPack[] = [IEC_62368_1, EN_55032, ISO_2768].map((p) => {
  const pack = ChecklistPackSchema.parse(p);
  for (const item of pack.items) if (item.check.check === 'states') new RegExp(item.check.pattern);
  return pack;
});

/**
 * The product type of each built-in design flow (a project's product types are those of the flows its runs used):
 * `mech_v1` makes a mechanical part, `hardware_v1` a hardware product (electronics in a mechanical enclosure).
 */
export const PRODUCT_TYPE_OF_FLOW: Readonly<Record<string, string>> = {
  mech_v1: 'mechanical_part',
  hardware_v1: 'hardware_product',
};
