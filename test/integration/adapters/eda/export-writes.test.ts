import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../../brokers/actions.ts';
import { HoldsActions } from '../../../../contracts/actions/approvals.actions.ts';
import type { Caller } from '../../../../contracts/actions/adapters.actions.ts';
import { startHoldsNode } from '../../../support/holds.ts';
import { rawMcp } from '../../../support/mcp-raw.ts';
import { callTool, okData, refusedIssues, useNode } from '../../../support/tools.ts';
import { DEMOS, demoWorkspace } from './demo-workspace.ts';

// Issue 27 finding 4: the EDA exports wrote over any workspace file (a .step, a board, Gerbers) unheld, and
// output_path "calls" made a file where every call's scratch folder lives. Attacks go through the registry
// (tools.call) as a local, a chat (remote, internal) and an MCP (HTTP) caller would send them.
const root = demoWorkspace('eda-writes-', ['pic_programmer']);
fs.cpSync(path.join(DEMOS, 'simulation', 'sallen_key'), path.join(root, 'simulation', 'sallen_key'), {
  recursive: true,
});
const t = useNode((env) =>
  startHoldsNode({ roles: 'gateway,tools,holds,adapter:eda', env: { ...env, SERVICE_WORKSPACE: root } }),
);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SCH = 'pic_programmer/pic_programmer.kicad_sch';
const BOARD = 'pic_programmer/pic_programmer.kicad_pcb';
const SPICE_SCH = 'simulation/sallen_key/sallen_key.kicad_sch';
const abs = (rel: string) => path.join(root, rel);
const hash = (rel: string) =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(abs(rel)))
    .digest('hex');
/** A file the attack must not touch: its bytes' hash and mtime. */
const plant = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
  fs.writeFileSync(abs(rel), text);
  return { hash: hash(rel), mtime: fs.statSync(abs(rel)).mtimeMs };
};
const unchanged = (rel: string, before: { hash: string; mtime: number }) => {
  expect(hash(rel), rel).toBe(before.hash);
  expect(fs.statSync(abs(rel)).mtimeMs, rel).toBe(before.mtime);
};
const fingerprint = (rel: string) => ({ hash: hash(rel), mtime: fs.statSync(abs(rel)).mtimeMs });
/** The one refusal naming the argument and saying the file exists. */
const refusedExisting = (r: Awaited<ReturnType<typeof callTool>>, arg: string) => {
  const message = refusedIssues(r)
    .map((i) => i.message)
    .join(' ');
  expect(message).toContain(arg);
  expect(message).toMatch(/exists; pass overwrite: true/);
};

describe('EDA exports never replace a workspace file unasked', () => {
  // First: the attack needs a workspace whose scratch root does not exist yet.
  it('output_path "calls" (the scratch root) is refused, and the next tool needing scratch still works', async () => {
    for (const target of ['calls', 'calls/x.cir', './calls', 'calls/eda.export_netlist/mine.cir']) {
      const r = await callTool(t.node.broker, 'eda.export_netlist', {
        schematic_path: SCH,
        format: 'spice',
        output_path: target,
      });
      const issues = refusedIssues(r);
      expect(issues.map((i) => i.message).join(' '), target).toMatch(/scratch/);
    }
    expect(fs.existsSync(abs('calls'))).toBe(false);
    const bom = await okData<{ bom_file: string }>(
      callTool(t.node.broker, 'eda.export_bom', { schematic_path: SCH, format: 'csv' }),
    );
    expect(bom.bom_file).toMatch(/^calls\/eda\.export_bom\//);
    expect(fs.statSync(abs('calls')).isDirectory()).toBe(true);
    // Through a link to it: the same refusal, nothing created there.
    fs.symlinkSync('calls', abs('linked'));
    const before = fs.readdirSync(abs('calls')).sort();
    const linked = await callTool(t.node.broker, 'eda.export_netlist', {
      schematic_path: SCH,
      format: 'spice',
      output_path: 'linked/eda.export_netlist/x.cir',
    });
    expect(refusedIssues(linked)[0]!.message).toMatch(/scratch root/);
    expect(fs.readdirSync(abs('calls')).sort()).toEqual(before);
  });

  it('export_netlist format spice at an existing .step and at the board: refused, both files unchanged', async () => {
    const step = plant('parts/bracket.step', 'ISO-10303-21; the bracket\n');
    const board = fingerprint(BOARD);
    for (const [target, before] of [
      ['parts/bracket.step', step],
      [BOARD, board],
    ] as const) {
      const r = await callTool(t.node.broker, 'eda.export_netlist', {
        schematic_path: SPICE_SCH,
        format: 'spice',
        output_path: target,
      });
      refusedExisting(r, 'output_path');
      unchanged(target, before);
    }
  });

  it('export_netlist json and kicad, and export_bom, at existing files: refused, files unchanged', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['eda.export_netlist', { format: 'json' }, 'out/pic.json'],
      ['eda.export_netlist', { format: 'kicad' }, 'out/pic.net'],
      ['eda.export_bom', { format: 'csv' }, 'out/pic-bom.csv'],
    ];
    for (const [tool, args, target] of cases) {
      const before = plant(target, `kept ${target}\n`);
      const r = await callTool(t.node.broker, tool, { schematic_path: SCH, ...args, output_path: target });
      refusedExisting(r, 'output_path');
      unchanged(target, before);
    }
  });

  it('export_gerber output_dir over existing Gerbers: refused, the files unchanged; a fresh folder is written', async () => {
    const first = await okData<{ files: { path: string }[]; output_dir: string }>(
      callTool(t.node.broker, 'eda.export_gerber', { board_path: BOARD, output_dir: 'fab/rev-a' }),
    );
    expect(first.output_dir).toBe('fab/rev-a');
    const target = first.files[0]!.path;
    const before = plant(target, 'G04 the one the fab house approved*\n');
    const r = await callTool(t.node.broker, 'eda.export_gerber', { board_path: BOARD, output_dir: 'fab/rev-a' });
    refusedExisting(r, 'output_dir');
    unchanged(target, before);
  });

  it("by default writes only into the call's own scratch folder, next to nothing of the caller's", async () => {
    const netlist = await okData<{ netlist_file: string }>(
      callTool(t.node.broker, 'eda.export_netlist', { schematic_path: SPICE_SCH, format: 'spice' }),
    );
    expect(netlist.netlist_file).toMatch(/^calls\/eda\.export_netlist\/[0-9a-f-]{36}\/sallen_key\.cir$/);
    expect(fs.existsSync(abs('simulation/sallen_key/sallen_key.cir'))).toBe(false);
  });

  it('overwrite: true replaces the file for a local caller', async () => {
    plant('out/replace.json', 'old\n');
    await okData(
      callTool(t.node.broker, 'eda.export_netlist', {
        schematic_path: SCH,
        format: 'json',
        output_path: 'out/replace.json',
        overwrite: true,
      }),
    );
    expect(JSON.parse(fs.readFileSync(abs('out/replace.json'), 'utf8')).components.length).toBeGreaterThan(10);
  });
});

describe('a write into the workspace is held for a remote caller', () => {
  const pending = async (tool: string) =>
    (await call(t.node.broker, HoldsActions.list, { status: 'all' })).records.filter(
      (r) => r.tool_id === tool && r.status === 'awaiting_approval',
    );

  it('a chat turn (remote, internal) asking to overwrite is held, and nothing is written before a person decides', async () => {
    const before = plant('out/chat.csv', 'kept\n');
    const chat: Partial<Caller> = { kind: 'remote', transport: 'internal', client: 'chat:thread-1' };
    const held = callTool(
      t.node.broker,
      'eda.export_bom',
      { schematic_path: SCH, output_path: 'out/chat.csv', overwrite: true },
      chat,
    );
    await expect.poll(async () => (await pending('eda.export_bom')).length).toBe(1);
    unchanged('out/chat.csv', before);
    const [rec] = await pending('eda.export_bom');
    await t.advance((rec!.window_seconds ?? 3600) + 1);
    const r = await held;
    expect(r).toMatchObject({ status: 'error', error: { type: 'APPROVAL_REQUIRED' } });
    unchanged('out/chat.csv', before);
  });

  it('over MCP: overwrite: true is held; an export into its own scratch folder runs unheld', async () => {
    const before = plant('out/mcp.net', 'kept\n');
    const mcp = rawMcp(t.url);
    const { sessionId } = await mcp.initialize();
    const free = await mcp.post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'eda.export_netlist', arguments: { schematic_path: SCH, format: 'kicad' } },
      },
      { 'mcp-session-id': sessionId },
    );
    expect(free.json.result.isError).toBeFalsy();
    expect(free.json.result.structuredContent.netlist_file).toMatch(/^calls\/eda\.export_netlist\//);
    const heldCall = mcp.post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'eda.export_netlist',
          arguments: { schematic_path: SCH, format: 'kicad', output_path: 'out/mcp.net', overwrite: true },
        },
      },
      { 'mcp-session-id': sessionId },
    );
    await expect.poll(async () => (await pending('eda.export_netlist')).length).toBe(1);
    unchanged('out/mcp.net', before);
    const [rec] = await pending('eda.export_netlist');
    await t.advance((rec!.window_seconds ?? 3600) + 1);
    const res = await heldCall;
    expect(res.json.error).toMatchObject({ code: -32001, data: { outcome: 'timed_out' } });
    unchanged('out/mcp.net', before);
  });
});
