import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEngine } from '../../../actors/adapters/kit/engines/spawn.ts';
import { engineCommand, type EngineSandbox } from '../../../actors/adapters/kit/sandbox.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

/**
 * Issue 27, finding 11 (engines' environment): an engine got the whole service environment (`{...process.env}`: the
 * admin token, the MCP key, the database URL). The node here runs with those secrets in its process environment and a
 * stand-in `ngspice` first on PATH that prints what it sees to stderr, which circuit.run_simulation quotes in its log;
 * the launcher case runs `env` itself, sandboxed and bare. An engine sees PATH, HOME and TMPDIR (its scratch folder),
 * the locale and what its runner adds, nothing else.
 */
const SECRETS = {
  SERVICE_HARNESS_ADMIN_TOKEN: `admin-${crypto.randomUUID()}`,
  SERVICE_MCP_API_KEY: `mcp-${crypto.randomUUID()}`,
  SERVICE_DATABASE_URL: `postgres://svc:pw-${crypto.randomUUID()}@127.0.0.1:5432/x`,
};
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'engine-env-')));
const workspace = path.join(base, 'ws');
const bin = path.join(base, 'bin');
fs.mkdirSync(workspace);
fs.mkdirSync(bin);
fs.writeFileSync(
  path.join(bin, 'ngspice'),
  '#!/bin/sh\nenv | sort | sed "s/^/ENV /" >&2\necho "Error: a stand-in engine" >&2\nexit 1\n',
  { mode: 0o755 },
);

// gmsh's runner keeps the last 20 lines of its output: the stand-in prints the lines that matter only.
fs.writeFileSync(
  path.join(bin, 'gmsh'),
  '#!/bin/sh\nenv | grep -E "^(SERVICE_|HOME=)" | sed "s/^/ENV /"\necho "Error: a stand-in engine"\nexit 1\n',
  { mode: 0o755 },
);
fs.writeFileSync(path.join(workspace, 'part.step'), 'ISO-10303-21;\nHEADER;\nENDSEC;\nEND-ISO-10303-21;\n');

const saved = { ...process.env };
let t: TestNode;
beforeAll(async () => {
  Object.assign(process.env, SECRETS, { PATH: `${bin}:${process.env.PATH}` });
  t = await startTestNode({ roles: 'tools,adapter:circuit,adapter:cadkernel', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  process.env = saved;
  fs.rmSync(base, { recursive: true, force: true });
});

/** NAME=value lines of an engine's own report of its environment. */
const envOf = (lines: string[]) =>
  Object.fromEntries(
    lines.map((l) => /^(?:ENV )?([A-Za-z_]\w*)=(.*)$/.exec(l)).flatMap((m) => (m ? [[m[1], m[2]]] : [])),
  );

describe('an engine sees none of the service environment', () => {
  it('circuit.run_simulation: the engine it runs sees no secret, only the minimal environment', async () => {
    const o = await callTool(t.node.broker, 'circuit.run_simulation', {
      netlist: '* t\nV1 a 0 1\nR1 a 0 1k\n.end\n',
      analysis_type: 'op',
    });
    expect(o.status === 'error' && o.error.type).toBe('TOOL_EXECUTION_ERROR');
    const log = (o.status === 'error' && (o.error.details as { log: string[] }).log) || [];
    const env = envOf(log);
    // The stand-in ran and reported (a positive control), in its scratch folder.
    expect(env.HOME, JSON.stringify(log)).toMatch(new RegExp(`^${workspace}/calls/`));
    const text = JSON.stringify(o);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(text, name).not.toContain(value);
      expect(env[name], name).toBeUndefined();
    }
    expect(Object.keys(env).filter((k) => k.startsWith('SERVICE_'))).toEqual([]);
  });

  it('cadkernel.generate_mesh: gmsh sees no secret either', async () => {
    const o = await callTool(t.node.broker, 'cadkernel.generate_mesh', { file_path: 'part.step' });
    expect(o.status === 'error' && o.error.type).toBe('TOOL_EXECUTION_ERROR');
    const tail = (o.status === 'error' && (o.error.details as { tail: string }).tail) || '';
    const env = envOf(tail.split('\n'));
    expect(env.HOME, tail).toMatch(new RegExp(`^${workspace}/calls/`));
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(JSON.stringify(o), name).not.toContain(value);
      expect(env[name], name).toBeUndefined();
    }
  });

  for (const mode of ['bwrap', 'off'] as EngineSandbox[]) {
    it(`the engine launcher (sandbox ${mode}) hands a program exactly the minimal environment`, async () => {
      const scratch = fs.mkdtempSync(path.join(workspace, 'scratch-'));
      const cmd = await engineCommand('/usr/bin/env', [], { scratch, missing: 'env', mode });
      const run = await spawnEngine(cmd, { cwd: scratch, signal: AbortSignal.timeout(20_000) });
      const env = envOf(run.stdout.trim().split('\n'));
      // bwrap sets PWD to the folder it starts the program in.
      const pwd = mode === 'bwrap' ? ['PWD'] : [];
      expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'LC_ALL', 'PATH', ...pwd, 'TMPDIR']);
      expect(env).toMatchObject({ HOME: scratch, TMPDIR: scratch, PATH: process.env.PATH });
    });
  }

  it('every process the actors and workers start goes through the engine launcher and its environment', () => {
    // A new file that starts processes fails here until it takes its environment from engineCommand (cmd.env).
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const files = ['actors', 'workers']
      .flatMap((d) => fs.readdirSync(path.join(root, d), { recursive: true, encoding: 'utf8' }).map((f) => `${d}/${f}`))
      .filter(
        (f) => f.endsWith('.ts') && /from 'node:child_process'/.test(fs.readFileSync(path.join(root, f), 'utf8')),
      );
    expect(files.sort()).toEqual([
      'actors/adapters/kit/engines/gmsh.ts',
      'actors/adapters/kit/engines/spawn.ts',
      'actors/adapters/kit/sandbox.ts',
      'actors/adapters/solver/ccx.ts',
    ]);
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      expect(text, f).not.toMatch(/\.\.\.process\.env/);
      for (const call of text.matchAll(/\bspawn\([^]*?\{([^]*?)\}\)/g))
        expect(call[1], f).toMatch(/env: (cmd\.env|engineEnv\()/);
    }
  });
});
