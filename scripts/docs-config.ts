// Writes docs/configuration.md's variables table from the code's one definition (ConfigSchema and CONFIG_DOC),
// between the config-table markers. `npm run docs:config`; test/unit/readme-config.test.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigSchema } from '../brokers/config.ts';
import { CONFIG_DOC, renderConfigTable, withConfigTable } from '../brokers/config-doc.ts';

const file = new URL('../docs/configuration.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withConfigTable(before, renderConfigTable(ConfigSchema.shape, CONFIG_DOC));
if (after !== before) writeFileSync(file, after);
process.stdout.write(`docs/configuration.md: ${after === before ? 'unchanged' : 'table written'}\n`);
