/*
 * Sensirion SHT3x-DIS driver (datasheet "SHT3x-DIS", version 7): single-shot measurement, high repeatability,
 * clock stretching disabled (command 0x2400), each 16-bit word followed by its CRC-8 (polynomial 0x31, init 0xFF).
 */
#ifndef SHT31_H
#define SHT31_H

#include <stddef.h>
#include <stdint.h>

/* Single-shot, high repeatability, no clock stretching (datasheet table 9). */
#define SHT31_CMD_SINGLE_SHOT_HIGH 0x2400u
/* Longest high-repeatability measurement (datasheet table 4: 15.5 ms), rounded up. */
#define SHT31_MEASURE_MS 16u

#define SHT31_OK 0
#define SHT31_ERR_BUS (-1)
#define SHT31_ERR_CRC (-2)

/* One measurement: temperature in degrees Celsius, relative humidity in percent. */
typedef struct {
  float temperature_c;
  float humidity_rh;
} sht31_reading;

/* CRC-8 of the datasheet (section 4.12): polynomial 0x31 (x^8 + x^5 + x^4 + 1), init 0xFF, no reflection, no final XOR. */
uint8_t sht31_crc8(const uint8_t *data, size_t len);

/* T = -45 + 175 * raw / 65535 (datasheet section 4.13). */
float sht31_temperature_c(uint16_t raw);

/* RH = 100 * raw / 65535 (datasheet section 4.13). */
float sht31_humidity_rh(uint16_t raw);

/* Starts a single-shot measurement at addr, waits for it and reads and checks both words. */
int sht31_measure(uint8_t addr, sht31_reading *out);

#endif /* SHT31_H */
