import { ERC_SEVERITY, type ErcItem, type ErcType, type ErcViolation } from './erc.types.ts';
import type { Point, SheetContent } from './schematic.types.ts';

/** Collects violations; `add` takes the check's default severity unless given one. */
export class Violations {
  readonly list: ErcViolation[] = [];
  add(
    type: ErcType,
    message: string,
    sheet: SheetContent,
    at: Point,
    items: ErcItem[],
    severity?: 'error' | 'warning',
  ) {
    const sev = severity ?? (type === 'pin_to_pin' ? 'error' : ERC_SEVERITY[type]);
    this.list.push({ type, severity: sev, message, sheet: sheet.instance.names, position_mm: at, items });
  }
}
