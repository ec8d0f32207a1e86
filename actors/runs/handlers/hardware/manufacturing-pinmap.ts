import type { PlanInput } from './manufacturing-plan.ts';

/**
 * Signal-to-pin pairs of a firmware pin map (the firmware phase's `pins`: {net, port, number, ...}; other spellings
 * {signal|name, pin|mcu_pin|gpio} accepted), and the I2C address it states for its sensor.
 */
export function pinmapOf(props: Record<string, unknown>): Omit<NonNullable<PlanInput['pinmap']>, 'ref'> {
  const signals: { signal: string; pin: string }[] = [];
  const rows = Array.isArray(props.pins) ? (props.pins as Record<string, unknown>[]) : [];
  for (const o of rows) {
    const signal = [o?.signal, o?.net, o?.name].find((x) => typeof x === 'string');
    const pin = [o?.port, o?.pin, o?.mcu_pin, o?.gpio, o?.number].find((x) => typeof x === 'string');
    if (signal !== undefined && pin !== undefined)
      signals.push({ signal: String(signal).replace(/^\//, ''), pin: String(pin) });
  }
  const address = (props.sensor as { i2c_address?: unknown } | undefined)?.i2c_address;
  return { signals, ...(typeof address === 'number' ? { i2c_address: address } : {}) };
}
