/*
 * Sensor firmware main loop: checks the CRC routine against the datasheet's example, then measures temperature and
 * humidity every MEASURE_PERIOD_S seconds and logs them. Pins and the sensor address come from pins.h, generated
 * from the board's pin map.
 */
#include "hal.h"
#include "pins.h"
#include "sht31.h"

/* Seconds between two measurements. */
#define MEASURE_PERIOD_S {{MEASURE_PERIOD_S}}u

int main(void) {
  static const uint8_t example[2] = {0xBEu, 0xEFu};
  hal_init();
  hal_log("board %s: SHT31 at 0x%02X on SDA pad %d, SCL pad %d", BOARD_NAME, SHT31_I2C_ADDR, PIN_I2C_SDA_PAD,
          PIN_I2C_SCL_PAD);
  const uint8_t crc = sht31_crc8(example, sizeof example);
  hal_log("crc8(0xBEEF) = 0x%02X (%s)", crc, crc == 0x92u ? "ok" : "WRONG");
  while (hal_running()) {
    sht31_reading r;
    const int rc = sht31_measure(SHT31_I2C_ADDR, &r);
    if (rc == SHT31_OK) {
      hal_log("T = %.2f C, RH = %.2f %%", (double)r.temperature_c, (double)r.humidity_rh);
    } else {
      hal_log("measurement failed (%d)", rc);
    }
    hal_delay_ms(MEASURE_PERIOD_S * 1000u);
  }
  return 0;
}
