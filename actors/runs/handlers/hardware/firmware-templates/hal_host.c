/*
 * Host implementation of hal.h: the I2C bus is simulated with one SHT31 at SHT31_I2C_ADDR answering the single-shot
 * command with fixed raw words (0x6666 -> 25.00 C, 0x8000 -> 50.00 %RH) and their CRCs; delays advance a simulated
 * clock instead of sleeping; the loop stops after HOST_CYCLES measurements. It stands in for the hardware so the
 * drivers build, link and run on the build machine. avr-gcc (which defines __AVR__) compiles it to nothing and links
 * hal_avr.c instead.
 */
#ifndef __AVR__
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>

#include "hal.h"
#include "pins.h"
#include "sht31.h"

/* Measurements the host run makes before the loop ends. */
#define HOST_CYCLES 3

static uint64_t now_ms;
static int cycles;
static int measuring;

void hal_init(void) {
  now_ms = 0;
  cycles = 0;
  measuring = 0;
}

int hal_i2c_write(uint8_t addr, const uint8_t *data, size_t len) {
  if (addr != SHT31_I2C_ADDR) return HAL_ERR_NACK;
  measuring = len == 2 && ((uint16_t)(data[0] << 8) | data[1]) == SHT31_CMD_SINGLE_SHOT_HIGH;
  return measuring ? HAL_OK : HAL_ERR_BUS;
}

int hal_i2c_read(uint8_t addr, uint8_t *data, size_t len) {
  if (addr != SHT31_I2C_ADDR || !measuring || len != 6) return HAL_ERR_NACK;
  data[0] = 0x66u;
  data[1] = 0x66u;
  data[2] = sht31_crc8(&data[0], 2);
  data[3] = 0x80u;
  data[4] = 0x00u;
  data[5] = sht31_crc8(&data[3], 2);
  measuring = 0;
  cycles++;
  return HAL_OK;
}

void hal_delay_ms(uint32_t ms) { now_ms += ms; }

void hal_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("[%8llu ms] ", (unsigned long long)now_ms);
  vprintf(fmt, ap);
  putchar('\n');
  va_end(ap);
}

int hal_running(void) { return cycles < HOST_CYCLES; }
#endif /* !__AVR__ */
