import { describe, expect, it } from 'vitest';
import { mcuPinMap, type MappedPart } from '../../../../actors/runs/handlers/hardware/firmware-pinmap.ts';
import { firmwareSources, pinsHeader } from '../../../../actors/runs/handlers/hardware/firmware-scaffold.ts';

// The firmware phase's pure parts: the MCU pin map from eda.get_pin_mapping's answer, and the sources generated from it.
const pin = (number: string, name: string, net: string | null = null) => ({ number, name, net });
const mcu = (pins = MCU_PINS): MappedPart => ({
  reference: 'U1',
  value: 'ATmega328P-AU',
  footprint: 'Package_QFP:TQFP-32_7x7mm_P0.8mm',
  lib_id: 'MCU_Microchip_ATmega:ATmega328P-AU',
  pins,
});
const MCU_PINS = [
  pin('1', 'PD3'),
  pin('3', 'GND', 'GND'),
  pin('4', 'VCC', '+3V3'),
  pin('15', 'MOSI/PB3', '/MOSI'),
  pin('16', 'MISO/PB4', '/MISO'),
  pin('17', 'SCK/PB5', '/SCK'),
  pin('20', 'AREF', '/AREF'),
  pin('27', 'SDA/PC4', '/SDA'),
  pin('28', 'SCL/PC5', '/SCL'),
  pin('29', '~{RESET}/PC6', '/RESET'),
];
const sht31 = (addrNet: string | null = 'GND'): MappedPart => ({
  reference: 'U2',
  value: 'SHT31-DIS',
  footprint: 'Sensor_Humidity:Sensirion_DFN-8-1EP_2.5x2.5mm_P0.5mm_EP1.1x1.7mm',
  lib_id: 'Sensor_Humidity:SHT31-DIS',
  pins: [pin('1', 'SDA', '/SDA'), pin('2', 'ADDR', addrNet), pin('4', 'SCL', '/SCL'), pin('5', 'VDD', '+3V3')],
});
const isp: MappedPart = {
  reference: 'J2',
  value: 'AVR-ISP-6',
  footprint: 'Connector_IDC:IDC-Header_2x03_P2.54mm_Vertical',
  lib_id: 'Connector:AVR-ISP-6',
  pins: [pin('1', 'MISO', '/MISO'), pin('3', 'SCK', '/SCK'), pin('4', 'MOSI', '/MOSI'), pin('5', '~{RST}', '/RESET')],
};

describe('the MCU pin map', () => {
  it('refuses a board without a strapped SHT3x on the MCU SDA net, naming why', () => {
    expect(mcuPinMap([sht31()])).toEqual({ ok: false, reason: expect.stringMatching(/no microcontroller/) });
    expect(mcuPinMap([mcu()])).toEqual({ ok: false, reason: 'U1 has no I2C sensor on an SDA net' });
    expect(mcuPinMap([mcu(), { ...sht31(), value: 'BME280' }])).toEqual({
      ok: false,
      reason: 'the firmware templates drive the SHT3x only, not BME280',
    });
    expect(mcuPinMap([mcu(), sht31(null)])).toEqual({
      ok: false,
      reason: 'the ADDR pin of U2 is on no net, not strapped',
    });
  });

  it('gives every MCU pin its net, port bit and use, with the parts at the other end', () => {
    const r = mcuPinMap([mcu(), sht31(), isp]);
    if (!r.ok) throw new Error(r.reason);
    expect(r.map.sensor).toMatchObject({ reference: 'U2', i2c_address: 0x44 });
    expect(r.map.pins.map((p) => [p.number, p.port, p.use])).toEqual([
      ['1', 'PD3', 'unused'],
      ['3', null, 'ground'],
      ['4', null, 'power'],
      ['15', 'PB3', 'isp_mosi'],
      ['16', 'PB4', 'isp_miso'],
      ['17', 'PB5', 'isp_sck'],
      ['20', null, 'analog_reference'],
      ['27', 'PC4', 'i2c_sda'],
      ['28', 'PC5', 'i2c_scl'],
      ['29', 'PC6', 'reset'],
    ]);
    expect(r.map.pins.find((p) => p.use === 'i2c_sda')?.note).toBe('I2C data to U2 SHT31-DIS at 0x44 (U2.1)');
    expect(r.map.pins.find((p) => p.use === 'reset')?.note).toMatch(/ISP drives it \(J2\.5\)/);
    const vdd = mcuPinMap([mcu(), sht31('+3V3')]);
    expect(vdd.ok && vdd.map.sensor.i2c_address).toBe(0x45);
  });
});

describe('the generated sources', () => {
  const r = mcuPinMap([mcu(), sht31(), isp]);
  if (!r.ok) throw new Error(r.reason);

  it('pins.h defines the pad, port and bit of each used pin and the sensor address', () => {
    const h = pinsHeader(r.map);
    expect(h).toContain('#define SHT31_I2C_ADDR 0x44u');
    expect(h).toContain('#define BOARD_NAME "ATmega328P-AU"');
    expect(h).toContain("#define PIN_I2C_SDA_PAD 27\n#define PIN_I2C_SDA_PORT 'C'\n#define PIN_I2C_SDA_BIT 4");
    expect(h).toContain("#define PIN_I2C_SCL_PAD 28\n#define PIN_I2C_SCL_PORT 'C'\n#define PIN_I2C_SCL_BIT 5");
    expect(h).toContain("#define PIN_RESET_PAD 29\n#define PIN_RESET_PORT 'C'\n#define PIN_RESET_BIT 6");
    expect(h).toContain('#define PIN_ANALOG_REFERENCE_PAD 20\n');
    expect(h).not.toMatch(/PIN_(GROUND|POWER|UNUSED)/);
    expect(h).toMatch(/^ \*\s+1 {2}PD3\s+-\s+unused\s+not connected$/m);
    expect(h.match(/#ifndef PINS_H[\s\S]*#endif/)).not.toBeNull();
  });

  it('are the templates plus pins.h, sorted, the same bytes every time, with the period filled in', () => {
    const files = firmwareSources(r.map, 30);
    expect(files.map((f) => f.path)).toEqual([
      'hal.h',
      'hal_avr.c',
      'hal_host.c',
      'main.c',
      'pins.h',
      'sht31.c',
      'sht31.h',
    ]);
    expect(firmwareSources(r.map, 30)).toEqual(files);
    const main = files.find((f) => f.path === 'main.c')!.content;
    expect(main).toContain('#define MEASURE_PERIOD_S 30u');
    expect(files.every((f) => !f.content.includes('{{'))).toBe(true);
    const sht = files.find((f) => f.path === 'sht31.c')!.content;
    expect(sht).toContain('0x31u');
    expect(files.find((f) => f.path === 'sht31.h')!.content).toContain('#define SHT31_CMD_SINGLE_SHOT_HIGH 0x2400u');
    expect(sht).toContain('-45.0f + 175.0f * (float)raw / 65535.0f');
    expect(sht).toContain('100.0f * (float)raw / 65535.0f');
  });
});
