import { ercRules, type ErcRules } from './erc-settings.ts';
import { KICAD_RULE, type ErcItem, type ErcType, type ErcViolation } from './erc.types.ts';
import type { Point, SheetContent } from './schematic.types.ts';

/**
 * Collects violations under a project's rules (erc-settings.ts): each is named by KiCad's rule, takes the rule's
 * severity (pin_to_pin: the matrix's verdict given by the check), and is left out when the rule is ignored or the
 * project excludes its marker (counted in `excluded`).
 */
export class Violations {
  readonly list: ErcViolation[] = [];
  excluded = 0;
  readonly rules: ErcRules;
  constructor(rules: ErcRules = ercRules()) {
    this.rules = rules;
  }
  add(type: ErcType, message: string, sheet: SheetContent, at: Point, items: ErcItem[], verdict?: 'error' | 'warning') {
    const rule = KICAD_RULE[type];
    const severity = this.rules.severity(rule, verdict);
    if (severity === 'ignore') return;
    if (this.rules.excluded(rule, at)) {
      this.excluded++;
      return;
    }
    this.list.push({ type, rule, severity, message, sheet: sheet.instance.names, position_mm: at, items });
  }
}
