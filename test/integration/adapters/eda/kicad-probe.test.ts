import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../../brokers/actions.ts';
import { adapterActions } from '../../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../../support/node.ts';
import { callTool } from '../../../support/tools.ts';
import { demoWorkspace } from './demo-workspace.ts';

/**
 * Issue 27, finding 9: the KiCad probe (adapter health, and the version check before a board tool) ran
 * `/usr/bin/python3 -c` unsandboxed, without `-I`, with HOME=/tmp, so a `.pth` file any local user planted in that
 * HOME's user site folder ran as the service user. Here one is planted where HOME=/tmp puts it; it would write a
 * marker file. Neither the health probe nor a board tool's run may run it.
 */
const workspace = demoWorkspace('eda-probe-', ['ecc83']);
const marker = path.join(os.tmpdir(), `kicad-probe-pwned-${crypto.randomUUID()}`);
const userSite = execFileSync('/usr/bin/python3', ['-c', 'import site; print(site.getusersitepackages())'], {
  env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
  encoding: 'utf8',
}).trim();
const pth = path.join(userSite, `zz-kicad-probe-${crypto.randomUUID()}.pth`);
let created: string | undefined;

beforeAll(() => {
  // The first folder of the user site path that did not exist yet is removed after the file, with what it holds.
  for (let d = userSite; d !== path.dirname(d) && !fs.existsSync(d); d = path.dirname(d)) created = d;
  fs.mkdirSync(userSite, { recursive: true });
  fs.writeFileSync(pth, `import os; open(${JSON.stringify(marker)}, 'w').write(str(os.getuid()))\n`);
});
afterAll(() => {
  fs.rmSync(pth, { force: true });
  if (created) fs.rmSync(created, { recursive: true, force: true });
  fs.rmSync(marker, { force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

const t = useTestNode({ roles: 'tools,adapter:eda', env: { SERVICE_WORKSPACE: workspace } });

describe('the KiCad probe runs isolated (python3 -I, sandboxed, a private empty HOME)', () => {
  it('a .pth planted in HOME=/tmp user site runs neither for health nor before a board tool', async () => {
    // The plant works on an interpreter that reads the user site (a positive control), then is removed.
    const control = `${marker}-control`;
    fs.writeFileSync(pth, `import os; open(${JSON.stringify(control)}, 'w').write('x')\n`);
    execFileSync('/usr/bin/python3', ['-c', 'pass'], { env: { PATH: '/usr/bin:/bin', HOME: '/tmp' } });
    expect(fs.existsSync(control)).toBe(true);
    fs.rmSync(control);
    fs.writeFileSync(pth, `import os; open(${JSON.stringify(marker)}, 'w').write(str(os.getuid()))\n`);

    const health = await call(t.node.broker, adapterActions('eda').health, {});
    expect(health.message ?? '').not.toMatch(/cannot import pcbnew/);
    const drc = await callTool(t.node.broker, 'eda.run_drc', { board_path: 'ecc83/ecc83-pp.kicad_pcb' });
    expect(drc.status, JSON.stringify(drc)).toBe('success');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
