import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HarnessConfigActions as HC } from '../../../contracts/actions/harness-config.actions.ts';
import { postJson } from '../http-raw.ts';
import type { TestNode } from '../node.ts';
import { startOpenAIServer } from './openai.ts';
import type { WireServer } from './wire-server.ts';

/** The model name the scripted server answers as, and the route a role takes to reach it. */
export const LOCAL_MODEL = 'llama3.1:8b';
export const LOCAL_ROUTE = `local-llm:${LOCAL_MODEL}`;
const KEY = 'sk-local-test';

export interface LocalModel {
  /** The scripted server (enqueue its replies, read the requests it got); set once the file's hooks ran. */
  readonly server: WireServer;
  /** A new project (over HTTP); with `role`, that role of the project routed to the local model. */
  project(prefix: string, role?: string): Promise<string>;
}

/**
 * A local server speaking the OpenAI wire protocol for the test file's node, stored there as the credential of the
 * provider `local-llm` (the scripted model of the harness, gate_check, phase brain and flow_generator tests). Call at
 * the top of a file, after `useTestNode`, whose node it uses.
 */
export function useLocalModel(t: TestNode): LocalModel {
  let server: WireServer | undefined;
  beforeAll(async () => {
    server = await startOpenAIServer({ apiKey: KEY });
    await call(t.node.broker, HC.addCredential, { provider: 'local-llm', api_key: KEY, base_url: server.url });
  });
  afterAll(() => server?.close());
  return {
    get server() {
      if (!server) throw new Error('the local model server starts in beforeAll');
      return server;
    },
    async project(prefix, role) {
      const id = (await postJson(`${t.url}/v1/projects`, { name: `${prefix} ${crypto.randomUUID()}` })).body
        .id as string;
      if (role) await call(t.node.broker, HC.setProjectRoutes, { project_id: id, routes: { [role]: LOCAL_ROUTE } });
      return id;
    },
  };
}
