import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SERVICE_BIN } from '../../support/spawn.ts';

describe('held writes over stdio with SERVICE_EXEMPT_LOCAL_WRITES=false', () => {
  it('puts the question on stdout: an approved write runs, a declined one does not', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVICE_BIN, '--transport', 'stdio', '--roles', 'gateway,tools,holds,projects,adapter:project'],
      env: {
        ...(process.env as Record<string, string>),
        SERVICE_DATA_DIR: 'memory://',
        SERVICE_LOG_LEVEL: 'warn',
        SERVICE_EXEMPT_LOCAL_WRITES: 'false',
      },
      stderr: 'pipe',
    });
    const answers: ElicitResult[] = [{ action: 'accept', content: { decision: 'approve' } }, { action: 'decline' }];
    const asked: string[] = [];
    const client = new Client({ name: 'stdio-holds', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String(req.params.message));
      return answers.shift()!;
    });
    await client.connect(transport);
    try {
      const created = await client.callTool({ name: 'project.create', arguments: { name: 'approved over stdio' } });
      expect(created.isError).toBeFalsy();
      expect(asked[0]).toContain('project.create');
      const err = await client.callTool({ name: 'project.create', arguments: { name: 'declined over stdio' } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).data).toMatchObject({
        outcome: 'rejected',
        route: 'elicitation',
        code: 'approval_required',
      });
      const list = await client.callTool({ name: 'project.list', arguments: {} });
      const names = (list.structuredContent as { projects: { name: string }[] }).projects.map((p) => p.name);
      expect(names).toContain('approved over stdio');
      expect(names).not.toContain('declined over stdio');
    } finally {
      await client.close();
    }
  }, 60_000);
});
