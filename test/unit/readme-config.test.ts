import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../../brokers/config.ts';

describe('configuration', () => {
  it('docs/configuration.md documents every SERVICE_* variable the service reads', () => {
    const readme = fs.readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const key of Object.keys(ConfigSchema.shape)) expect(readme, key).toContain(`\`${key}\``);
  });

  it('applies the defaults and names a bad variable', () => {
    const c = loadConfig({});
    expect(c.SERVICE_HOST).toBe('127.0.0.1');
    expect(c.SERVICE_PORT).toBe(8765);
    expect(c.SERVICE_BODY_LIMIT_BYTES).toBe(10 * 1024 * 1024);
    expect(() => loadConfig({ SERVICE_PORT: 'x' })).toThrow(/SERVICE_PORT/);
    expect(() => loadConfig({ SERVICE_TRANSPORTER: 'not a url' })).toThrow(/SERVICE_TRANSPORTER/);
  });
});
