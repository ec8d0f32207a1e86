import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const contractsDir = fileURLToPath(new URL('../../contracts/', import.meta.url));

/** Every `contracts/**.ts` module, so a schema counts even before it is re-exported from the index. */
async function contractModules(): Promise<Array<[string, Record<string, unknown>]>> {
  const files = readdirSync(contractsDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .sort();
  return Promise.all(
    files.map(
      async (f) =>
        [f, (await import(pathToFileURL(contractsDir + f).href)) as Record<string, unknown>] as [
          string,
          Record<string, unknown>,
        ],
    ),
  );
}

describe('JSON Schema generation (STYLE R1)', () => {
  it('z.toJSONSchema succeeds for every exported *Schema, input and output side', async () => {
    let count = 0;
    for (const [file, mod] of await contractModules()) {
      for (const [name, value] of Object.entries(mod)) {
        if (!name.endsWith('Schema')) continue;
        expect(value instanceof z.ZodType, `${file}: ${name} is not a zod schema`).toBe(true);
        const schema = value as z.ZodType;
        expect(() => z.toJSONSchema(schema, { io: 'output' }), `${file}: ${name} (output)`).not.toThrow();
        expect(() => z.toJSONSchema(schema, { io: 'input' }), `${file}: ${name} (input)`).not.toThrow();
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });
});
