/*
 * ATmega328P implementation of hal.h (built only by avr-gcc, which defines __AVR__; the host build compiles it to
 * nothing and links hal_host.c instead). Clock F_CPU (the build passes it: the internal 8 MHz RC oscillator with
 * CKDIV8 cleared, as the bring-up plan's fuses set it); I2C master on TWI at 100 kHz (PC4 SDA, PC5 SCL: pads 27 and
 * 28 of the TQFP-32); delays by busy-waiting (<util/delay.h>); the log on USART0 at 9600 8N1 (PD1 TXD), one line per
 * call ending in CR LF. The main loop runs for ever.
 */
#ifdef __AVR__
#include <avr/io.h>
#include <stdarg.h>
#include <stdio.h>
#include <util/delay.h>
#include <util/twi.h>

#include "hal.h"

#define I2C_HZ 100000UL
#define UART_BAUD 9600UL
/* Polls of TWINT before a bus operation counts as hung (a stuck line must not stop the loop). */
#define TWI_SPINS 20000u

void hal_init(void) {
  TWSR = 0;                                         /* prescaler 1 */
  TWBR = (uint8_t)((F_CPU / I2C_HZ - 16UL) / 2UL);  /* SCL = F_CPU / (16 + 2 * TWBR) */
  TWCR = _BV(TWEN);
  UBRR0 = (uint16_t)(F_CPU / (16UL * UART_BAUD) - 1UL);
  UCSR0B = _BV(TXEN0);
  UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
}

/* Starts one TWI action (the TWCR bits besides TWINT and TWEN) and waits for it; the status bits, or 0xFF when hung. */
static uint8_t twi(uint8_t bits) {
  TWCR = (uint8_t)(_BV(TWINT) | _BV(TWEN) | bits);
  for (uint16_t n = 0; !(TWCR & _BV(TWINT)); n++)
    if (n == TWI_SPINS) return 0xFF;
  return TW_STATUS;
}

static void twi_stop(void) { TWCR = _BV(TWINT) | _BV(TWEN) | _BV(TWSTO); }

/* START and the address byte; HAL_OK when the device acknowledged. */
static int twi_begin(uint8_t addr, uint8_t rw) {
  const uint8_t s = twi(_BV(TWSTA));
  if (s != TW_START && s != TW_REP_START) return HAL_ERR_BUS;
  TWDR = (uint8_t)((addr << 1) | rw);
  const uint8_t a = twi(0);
  if (a == (rw ? TW_MR_SLA_ACK : TW_MT_SLA_ACK)) return HAL_OK;
  twi_stop();
  return a == (rw ? TW_MR_SLA_NACK : TW_MT_SLA_NACK) ? HAL_ERR_NACK : HAL_ERR_BUS;
}

int hal_i2c_write(uint8_t addr, const uint8_t *data, size_t len) {
  const int rc = twi_begin(addr, TW_WRITE);
  if (rc != HAL_OK) return rc;
  for (size_t i = 0; i < len; i++) {
    TWDR = data[i];
    if (twi(0) != TW_MT_DATA_ACK) {
      twi_stop();
      return HAL_ERR_NACK;
    }
  }
  twi_stop();
  return HAL_OK;
}

int hal_i2c_read(uint8_t addr, uint8_t *data, size_t len) {
  const int rc = twi_begin(addr, TW_READ);
  if (rc != HAL_OK) return rc;
  for (size_t i = 0; i < len; i++) {
    const int last = i + 1 == len;
    const uint8_t s = twi(last ? 0 : _BV(TWEA));
    if (s != (last ? TW_MR_DATA_NACK : TW_MR_DATA_ACK)) {
      twi_stop();
      return HAL_ERR_BUS;
    }
    data[i] = TWDR;
  }
  twi_stop();
  return HAL_OK;
}

void hal_delay_ms(uint32_t ms) {
  while (ms--) _delay_ms(1);
}

static void uart_put(char c) {
  while (!(UCSR0A & _BV(UDRE0))) {
  }
  UDR0 = (uint8_t)c;
}

void hal_log(const char *fmt, ...) {
  char line[96];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  for (const char *p = line; *p; p++) uart_put(*p);
  uart_put('\r');
  uart_put('\n');
}

int hal_running(void) { return 1; }
#endif /* __AVR__ */
