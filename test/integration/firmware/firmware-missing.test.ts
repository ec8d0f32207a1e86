import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { buildFirmware } from '../../../actors/runs/handlers/hardware/firmware-build.ts';
import { FirmwareActions } from '../../../contracts/actions/firmware.actions.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';

// Without gcc (a PATH holding bwrap only, while the node runs; this file runs in a process of its own) the firmware
// actor says so and never passes a build; without the firmware role the capability report says the phase cannot run.
const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-nogcc-bin-'));
fs.symlinkSync('/usr/bin/bwrap', path.join(bin, 'bwrap'));
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-nogcc-'));
afterAll(() => [bin, workspace].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const ROLES = 'gateway,projects,tools,twin,adapter:twin,runs,gates';
const firmwarePhase = async (url: string) => {
  const r = await httpJson(`${url}/v1/design-flows/hardware_v1/capabilities`, 'GET');
  expect(r.status).toBe(200);
  return r.json.report.phases.find((p: Json) => p.id === 'firmware') as Json;
};

describe('the firmware actor without gcc', () => {
  const t = useTestNode({ roles: `${ROLES},firmware`, path: bin, env: { SERVICE_WORKSPACE: workspace } });

  it('reports unhealthy naming the Debian package gcc', async () => {
    expect(await call(t.node.broker, FirmwareActions.health, {})).toEqual({
      status: 'unhealthy',
      compiler: null,
      sandbox: 'bwrap',
      message: 'the C compiler gcc is not installed (not found on PATH; Debian package gcc)',
    });
  });

  it('fails a build with SERVICE_UNAVAILABLE naming gcc, never a pass, writing nothing', async () => {
    const err = await call(t.node.broker, FirmwareActions.build, {
      run_id: 'run-nogcc',
      files: [{ path: 'main.c', content: 'int main(void) { return 0; }\n' }],
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ActorError);
    expect(err).toMatchObject({ type: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/Debian package gcc/) });
    expect(fs.existsSync(path.join(workspace, 'firmware'))).toBe(false);
  });

  it('makes the capability report say the firmware phase cannot run, naming gcc', async () => {
    const p = await firmwarePhase(t.url);
    expect(p).toMatchObject({ runnable: false, status: 'BLOCKED', handler: 'deterministic' });
    expect(p.missing).toContain(
      'the firmware actor cannot build: the C compiler gcc is not installed (not found on PATH; Debian package gcc)',
    );
  });
});

describe('a cluster without the firmware role', () => {
  const t = useTestNode({ roles: ROLES });

  it('makes the capability report say the firmware phase cannot run, naming the role and gcc', async () => {
    const p = await firmwarePhase(t.url);
    expect(p).toMatchObject({ runnable: false, status: 'BLOCKED' });
    expect(p.missing).toContain(
      'the firmware actor is not reachable: no node hosts role firmware (it builds with gcc, Debian package gcc)',
    );
  });

  it('stops the firmware phase as a capability failure when it asks for a build', async () => {
    const input = { run_id: 'run_absent', bus: t.node.broker } as unknown as PhaseInput;
    const err = await buildFirmware(input, [{ path: 'main.c', content: 'int main(void) { return 0; }\n' }]).then(
      () => null,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(err?.kind).toBe('capability');
    expect(err?.message).toMatch(/^firmware\.build: .*Debian package gcc/);
  });
});
