/*
 * Hardware access interface of the sensor firmware. The drivers and the main loop reach the hardware only through
 * these calls, so the same sources build for the ATmega328P (an AVR HAL over TWI, timers and USART) and for the host
 * (hal_host.c, a simulated bus), where gcc checks them with every warning an error.
 */
#ifndef HAL_H
#define HAL_H

#include <stddef.h>
#include <stdint.h>

/* Return codes of the bus calls: 0 on success, negative on a bus error (NACK, arbitration lost, timeout). */
#define HAL_OK 0
#define HAL_ERR_NACK (-1)
#define HAL_ERR_BUS (-2)

/* Brings up the clock, the I2C master (100 kHz) and the log output. */
void hal_init(void);

/* Writes len bytes to the 7-bit I2C address addr (START, address+W, data, STOP). */
int hal_i2c_write(uint8_t addr, const uint8_t *data, size_t len);

/* Reads len bytes from the 7-bit I2C address addr (START, address+R, data with ACK but the last, STOP). */
int hal_i2c_read(uint8_t addr, uint8_t *data, size_t len);

/* Waits at least ms milliseconds. */
void hal_delay_ms(uint32_t ms);

/* Writes one formatted log line (UART on the target, stdout on the host). */
void hal_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether the main loop goes on: always on the target; the host stops after a few cycles. */
int hal_running(void);

#endif /* HAL_H */
