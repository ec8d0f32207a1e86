#include "sht31.h"

#include "hal.h"

uint8_t sht31_crc8(const uint8_t *data, size_t len) {
  uint8_t crc = 0xFFu;
  for (size_t i = 0; i < len; i++) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc & 0x80u) ? (uint8_t)((crc << 1) ^ 0x31u) : (uint8_t)(crc << 1);
    }
  }
  return crc;
}

float sht31_temperature_c(uint16_t raw) { return -45.0f + 175.0f * (float)raw / 65535.0f; }

float sht31_humidity_rh(uint16_t raw) { return 100.0f * (float)raw / 65535.0f; }

int sht31_measure(uint8_t addr, sht31_reading *out) {
  const uint8_t cmd[2] = {(uint8_t)(SHT31_CMD_SINGLE_SHOT_HIGH >> 8), (uint8_t)(SHT31_CMD_SINGLE_SHOT_HIGH & 0xFFu)};
  uint8_t rx[6];
  if (hal_i2c_write(addr, cmd, sizeof cmd) != HAL_OK) return SHT31_ERR_BUS;
  hal_delay_ms(SHT31_MEASURE_MS);
  if (hal_i2c_read(addr, rx, sizeof rx) != HAL_OK) return SHT31_ERR_BUS;
  if (sht31_crc8(&rx[0], 2) != rx[2] || sht31_crc8(&rx[3], 2) != rx[5]) return SHT31_ERR_CRC;
  out->temperature_c = sht31_temperature_c((uint16_t)((rx[0] << 8) | rx[1]));
  out->humidity_rh = sht31_humidity_rh((uint16_t)((rx[3] << 8) | rx[4]));
  return SHT31_OK;
}
