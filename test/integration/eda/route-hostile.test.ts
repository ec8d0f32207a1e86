import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBoard } from '../../../actors/adapters/eda/layout/check.ts';
import { routeBoard } from '../../../actors/adapters/eda/layout/route.ts';
import { InvalidArgumentsError } from '../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { hasRouting, longSignal, makeTestBoard } from './route-support.ts';

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (err: Error) => err,
  );
}

const listing = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();

describe.skipIf(!hasRouting)('routeBoard refuses what it must not read and reports what it cannot route', () => {
  let outer: string;
  let root: string;
  let ws: Workspace;

  beforeAll(() => {
    outer = fs.mkdtempSync(path.join(os.tmpdir(), 'route-hostile-'));
    root = path.join(outer, 'ws');
    makeTestBoard(path.join(outer, 'outside'), 'amp', { spread: 1.5 });
    makeTestBoard(path.join(root, 'b'), 'ring', { spread: 1.5, ring: true });
    fs.symlinkSync(path.join(outer, 'outside', 'amp.kicad_pcb'), path.join(root, 'b', 'link.kicad_pcb'));
    fs.symlinkSync(path.join(outer, 'outside'), path.join(root, 'out'));
    ws = new Workspace(root);
  }, 120_000);
  afterAll(() => fs.rmSync(outer, { recursive: true, force: true }));

  it('refuses a board outside the workspace, through a symlink out of it, or a linked folder; writes nothing', async () => {
    const before = listing(outer);
    for (const [board_path, why] of [
      ['../outside/amp.kicad_pcb', /is outside the workspace/],
      [path.join(outer, 'outside', 'amp.kicad_pcb'), /is outside the workspace/],
      ['b/link.kicad_pcb', /leads outside the workspace through a symlink/],
      ['out/amp.kicad_pcb', /leads outside the workspace through a symlink/],
    ] as const) {
      const err = await rejection(routeBoard(ws, { board_path }, longSignal()));
      expect(err).toBeInstanceOf(InvalidArgumentsError);
      expect(err.message).toMatch(why);
      const checked = await rejection(checkBoard(ws, { board_path }, longSignal()));
      expect(checked).toBeInstanceOf(InvalidArgumentsError);
    }
    expect(listing(outer)).toEqual(before);
  }, 300_000);

  it('reports a net it cannot route as completion < 1 and KiCad DRC unconnected > 0, never as done', async () => {
    const r = await routeBoard(
      ws,
      { board_path: 'b/ring.kicad_pcb', schematic_path: 'b/ring.kicad_sch', output_path: 'b/ring.routed.kicad_pcb' },
      longSignal(),
    );
    expect(r.completion).toBeLessThan(1);
    expect(r.connections_routed).toBeLessThan(r.connections_to_route);
    expect(r.check.unconnected).toBeGreaterThan(0);
    expect(r.check.unconnected).toBe(r.connections_to_route - r.connections_routed);
    expect(r.check.passed).toBe(false);
    // What was routed still passes DRC: the ring's net is left open, not shorted through the ring.
    expect(r.check.errors).toBe(0);
    const again = await checkBoard(ws, { board_path: 'b/ring.routed.kicad_pcb' }, longSignal());
    expect(again.unconnected).toBe(r.check.unconnected);
  }, 900_000);
});
