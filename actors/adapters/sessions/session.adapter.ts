import { SessionsActions as S } from '../../../contracts/actions/sessions.actions.ts';
import {
  AgentSessionSchema,
  SessionCompleteSchema,
  SessionEventSchema,
  SessionLogEventSchema,
  SessionStartSchema,
} from '../../../contracts/sessions.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool } from '../kit/tool.ts';
import { actorCall, requireProject } from '../kit/actor-call.ts';

const tools = [
  defineTool({
    name: 'start',
    title: 'Start an agent session',
    description:
      'Start capturing an agent session: title, optional project_id (defaults to the call context project) and client name ' +
      '(defaults to the MCP client). Returns the session with its id; log events to it and complete it with a summary.',
    input: SessionStartSchema,
    output: AgentSessionSchema,
    handler: async (args, tc) => {
      const project_id = args.project_id ?? tc.caller.project_id;
      if (project_id) await requireProject(tc, project_id);
      return actorCall(tc, S.start, { ...args, project_id, client: args.client ?? tc.caller.client });
    },
  }),
  defineTool({
    name: 'log_event',
    title: 'Log a session event',
    description:
      'Append an event to an active session: kind (note, decision, tool_call, insight, lesson, error; default note), ' +
      'message, optional data object. Events are numbered per session (seq). Insights and lessons feed memory.list_insights ' +
      '(put a theme in data.theme). An unknown or completed session is refused.',
    input: SessionLogEventSchema,
    output: SessionEventSchema,
    handler: (args, tc) => actorCall(tc, S.logEvent, args),
  }),
  defineTool({
    name: 'complete',
    title: 'Complete a session',
    description: 'Close an active session with a summary of what was done and learned. A session completes once.',
    input: SessionCompleteSchema,
    output: AgentSessionSchema,
    handler: (args, tc) => actorCall(tc, S.complete, args),
  }),
];

/** The `session` adapter: start, log_event and complete over the sessions actor. */
export const createSessionAdapter = createAdapterService({
  id: 'session',
  version: '0.1.0',
  capability: 'session',
  tools,
});
