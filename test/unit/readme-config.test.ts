import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DOC,
  CONFIG_TABLE_END,
  CONFIG_TABLE_START,
  renderConfigTable,
  withConfigTable,
} from '../../brokers/config-doc.ts';
import { ConfigSchema, loadConfig } from '../../brokers/config.ts';

const docFile = new URL('../../docs/configuration.md', import.meta.url);

describe('configuration', () => {
  it('the table generator refuses a variable without a meaning and a document without markers', () => {
    const shape = { SERVICE_X: ConfigSchema.shape.SERVICE_PORT };
    expect(() => renderConfigTable(shape, {})).toThrow(/SERVICE_X has no line/);
    expect(() => withConfigTable('# no markers here\n', '| a |')).toThrow(/markers/);
  });

  it('renders the default from the schema, else the line says what unset means', () => {
    const table = renderConfigTable(
      { SERVICE_PORT: ConfigSchema.shape.SERVICE_PORT, SERVICE_REDIS_URL: ConfigSchema.shape.SERVICE_REDIS_URL },
      { SERVICE_PORT: { meaning: 'port' }, SERVICE_REDIS_URL: { unset: '(memory)', meaning: 'redis' } },
    );
    expect(table.split('\n').slice(2)).toEqual([
      '| `SERVICE_PORT` | 8765 | port |',
      '| `SERVICE_REDIS_URL` | (memory) | redis |',
    ]);
  });

  it('docs/configuration.md holds the table generated from ConfigSchema and CONFIG_DOC (npm run docs:config)', () => {
    const text = fs.readFileSync(docFile, 'utf8');
    const table = renderConfigTable(ConfigSchema.shape, CONFIG_DOC);
    const a = text.indexOf(CONFIG_TABLE_START);
    const b = text.indexOf(CONFIG_TABLE_END);
    expect(a, 'the start marker').toBeGreaterThan(-1);
    expect(text.slice(a + CONFIG_TABLE_START.length, b).trim()).toBe(table);
    for (const key of Object.keys(ConfigSchema.shape)) expect(table, key).toContain(`| \`${key}\` |`);
    expect(Object.keys(CONFIG_DOC).sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
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
