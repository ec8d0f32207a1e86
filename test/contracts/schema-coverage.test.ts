import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as approvals from '../../contracts/approvals.ts';
import * as cad from '../../contracts/cad.ts';
import * as flows from '../../contracts/flows.ts';
import * as health from '../../contracts/health.ts';
import * as misc from '../../contracts/misc.ts';
import * as simulation from '../../contracts/simulation.ts';
import * as tools from '../../contracts/tools.ts';
import * as twin from '../../contracts/twin.ts';

const modules = { approvals, cad, flows, health, misc, simulation, tools, twin };

describe('contract test coverage', () => {
  it.each(Object.entries(modules))('every *Schema of contracts/%s.ts is exercised in its test file', (topic, mod) => {
    const tests = readFileSync(new URL(`./${topic}.test.ts`, import.meta.url), 'utf8');
    const untested = Object.keys(mod).filter(
      (name) => name.endsWith('Schema') && !new RegExp(`\\b${name}\\b`).test(tests),
    );
    expect(untested).toEqual([]);
  });
});
