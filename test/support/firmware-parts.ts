import { mcuPinMap, type MappedPart } from '../../actors/runs/handlers/hardware/firmware-pinmap.ts';
import { firmwareSources, type SourceFile } from '../../actors/runs/handlers/hardware/firmware-scaffold.ts';

/** The sensor board's MCU and humidity sensor as the schematic maps them: I2C on pads 27/28, the sensor's ADDR strapped low. */
export const SENSOR_PARTS: MappedPart[] = [
  {
    reference: 'U1',
    value: 'ATmega328P-AU',
    footprint: 'Package_QFP:TQFP-32_7x7mm_P0.8mm',
    lib_id: 'MCU_Microchip_ATmega:ATmega328P-AU',
    pins: [
      { number: '27', name: 'SDA/PC4', net: '/SDA' },
      { number: '28', name: 'SCL/PC5', net: '/SCL' },
      { number: '29', name: '~{RESET}/PC6', net: '/RESET' },
    ],
  },
  {
    reference: 'U2',
    value: 'SHT31-DIS',
    footprint: 'Sensor_Humidity:SHT31',
    lib_id: 'Sensor_Humidity:SHT31-DIS',
    pins: [
      { number: '1', name: 'SDA', net: '/SDA' },
      { number: '2', name: 'ADDR', net: 'GND' },
      { number: '4', name: 'SCL', net: '/SCL' },
    ],
  },
];

/** The firmware scaffold the hardware_v1 firmware phase generates for SENSOR_PARTS. */
export function sensorFirmware(): SourceFile[] {
  const pm = mcuPinMap(SENSOR_PARTS);
  if (!pm.ok) throw new Error(pm.reason);
  return firmwareSources(pm.map);
}
