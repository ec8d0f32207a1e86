import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEngine, type EngineRun } from '../../../actors/adapters/kit/engines/spawn.ts';
import { engineCommand } from '../../../actors/adapters/kit/sandbox.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

/**
 * Issue 27, finding 11 (limits): outside k8s no engine had a process, memory or CPU-time limit. The sandbox launcher
 * now runs each engine with a process cap, an address-space limit and a CPU-time limit (README "Engine sandbox"). The
 * hostile programs here (a fork bomb, a memory hog, a busy loop) are test programs run through the launcher only; the
 * node case shows the configuration reaching a real engine run through the registry.
 */
const scratchRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'engine-limits-')));
afterAll(() => fs.rmSync(scratchRoot, { recursive: true, force: true }));

type Limits = { maxProcs: number; memoryMb: number; cpuSeconds: number };
const NONE: Limits = { maxProcs: 0, memoryMb: 0, cpuSeconds: 0 };

async function run(program: string, args: string[], limits: Limits): Promise<EngineRun> {
  const scratch = fs.mkdtempSync(path.join(scratchRoot, 'run-'));
  const cmd = await engineCommand(program, args, { scratch, missing: program, mode: 'bwrap', limits });
  return spawnEngine(cmd, { cwd: scratch, signal: AbortSignal.timeout(25_000) });
}

// A subshell starts 100 children that would sleep (it dies at the first fork refused), then the parent counts the
// processes of the sandbox's PID namespace with shell builtins only (no fork left to count with), then kills them all.
const BOMB =
  '(for i in $(seq 1 100); do (exec sleep 1000) & done) 2>/dev/null; set -- /proc/[0-9]*; echo "procs $#"; kill -KILL 0';
const procs = (r: EngineRun) => Number(/procs (\d+)/.exec(r.stdout)?.[1] ?? NaN);

describe('the engine sandbox limits what an engine may take', () => {
  it('a fork bomb stops at the process cap', async () => {
    expect(procs(await run('/bin/sh', ['-c', BOMB], NONE))).toBeGreaterThan(100); // no cap: every child starts
    const capped = procs(await run('/bin/sh', ['-c', BOMB], { ...NONE, maxProcs: 16 }));
    expect(capped).toBeGreaterThan(1);
    expect(capped).toBeLessThanOrEqual(16);
  });

  it('a memory hog fails at the memory limit', async () => {
    const hog = ['-I', '-c', 'b = bytearray(400 * 2**20); print("allocated", len(b))'];
    expect((await run('/usr/bin/python3', hog, NONE)).stdout).toContain('allocated');
    const r = await run('/usr/bin/python3', hog, { ...NONE, memoryMb: 256 });
    expect(r.stdout).not.toContain('allocated');
    expect(r.stderr).toMatch(/MemoryError/);
  });

  it('a busy loop is killed at the CPU-time limit', async () => {
    const r = await run('/bin/sh', ['-c', 'while :; do :; done'], { ...NONE, cpuSeconds: 1 });
    expect(r.aborted).toBe(false);
    // bwrap answers its child's death by signal as 128 + the signal: SIGXCPU at the soft limit, SIGKILL at the hard.
    expect([128 + os.constants.signals.SIGXCPU, 128 + os.constants.signals.SIGKILL]).toContain(r.exitCode);
  });
});

describe('a node applies SERVICE_ENGINE_MEMORY_MB to its engines', () => {
  let t: TestNode;
  const workspace = path.join(scratchRoot, 'ws');
  beforeAll(async () => {
    fs.mkdirSync(workspace);
    t = await startTestNode({
      roles: 'tools,adapter:circuit',
      env: { SERVICE_WORKSPACE: workspace, SERVICE_ENGINE_MEMORY_MB: '8' },
    });
  });
  afterAll(() => t.stop());

  it('ngspice cannot start within 8 MB of address space: the call fails, the engine did not run', async () => {
    const o = await callTool(t.node.broker, 'circuit.run_simulation', {
      netlist: '* t\nV1 a 0 1\nR1 a 0 1k\n.op\n.end\n',
      analysis_type: 'op',
    });
    expect(o.status === 'error' && o.error.type, JSON.stringify(o)).toBe('TOOL_EXECUTION_ERROR');
  });
});
