import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ToolAnnotations } from '../../../contracts/tools.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool, ToolError, withContent, type ToolContext } from '../kit/tool.ts';
import {
  DEFAULTS_SCHEMA,
  ElicitAnswerSchema,
  ENUMS_SCHEMA,
  SamplingAnswerSchema,
  samplingText,
  USER_INFO_SCHEMA,
} from './elicitation.ts';
import { RED_PIXEL_PNG, tinyWav } from './media.ts';

/**
 * Fixture tools of the MCP conformance suite 0.1.16 (notes/mcp-clients.md "Conformance suite"), under the exact names
 * the suite calls. Registered only when MCP_CONFORMANCE_FIXTURES=1 (role `adapter:conformance`). They touch nothing, so
 * they are read-only and never held.
 */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The spacing the suite's scenarios describe between log lines and progress reports. */
const STEP_MS = 50;

const NoArgs = z.object({});
const text = (t: string) => ({ type: 'text' as const, text: t });
const image = () => ({ type: 'image' as const, data: RED_PIXEL_PNG, mimeType: 'image/png' });

/** Asks the client to fill a form and parses its answer. */
async function elicit(tc: ToolContext, message: string, requestedSchema: Record<string, unknown>) {
  const answer = ElicitAnswerSchema.safeParse(await tc.request('elicitation/create', { message, requestedSchema }));
  if (!answer.success)
    throw new ToolError('the client answered elicitation/create with something that is not an elicitation result');
  return answer.data;
}

const described = (a: z.output<typeof ElicitAnswerSchema>) =>
  `action=${a.action}, content=${JSON.stringify(a.content ?? {})}`;

const tools = [
  defineTool({
    name: 'test_simple_text',
    description: 'Conformance fixture: returns one text block.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () => withContent([text('This is a simple text response for testing.')]),
  }),
  defineTool({
    name: 'test_image_content',
    description: 'Conformance fixture: returns a 1x1 red PNG as image content.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () => withContent([image()]),
  }),
  defineTool({
    name: 'test_audio_content',
    description: 'Conformance fixture: returns a short WAV clip as audio content (audio/wav).',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () => withContent([{ type: 'audio', data: tinyWav(), mimeType: 'audio/wav' }]),
  }),
  defineTool({
    name: 'test_embedded_resource',
    description: 'Conformance fixture: returns an embedded text resource.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () =>
      withContent([
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ]),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    description: 'Conformance fixture: returns text, an image and an embedded JSON resource together.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () =>
      withContent([
        text('Multiple content types test:'),
        image(),
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ]),
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Conformance fixture: sends three info log messages (notifications/message) while it runs.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async (_args, tc) => {
      const lines = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
      for (const [i, line] of lines.entries()) {
        if (i > 0) await sleep(STEP_MS, undefined, { signal: tc.signal });
        await tc.notify('notifications/message', { level: 'info', logger: 'conformance', data: line });
      }
      return withContent([text('Tool with logging executed successfully')]);
    },
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Conformance fixture: always fails, so the result is isError: true with a message.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async () => {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Conformance fixture: reports progress 0, 0.5 and 1 (notifications/progress) while it runs.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async (_args, tc) => {
      for (const [i, fraction] of [0, 0.5, 1].entries()) {
        if (i > 0) await sleep(STEP_MS, undefined, { signal: tc.signal });
        tc.progress(fraction, `step ${i + 1} of 3`);
      }
      return withContent([text('Tool with progress executed successfully')]);
    },
  }),
  defineTool({
    name: 'test_sampling',
    description:
      "Conformance fixture: asks the client's model to answer a prompt (sampling/createMessage) and returns the answer.",
    input: z.object({ prompt: z.string().describe('The prompt to send to the model') }),
    annotations: READ_ONLY,
    handler: async ({ prompt }, tc) => {
      const raw = await tc.request('sampling/createMessage', {
        messages: [{ role: 'user', content: text(prompt) }],
        maxTokens: 100,
      });
      const answer = SamplingAnswerSchema.safeParse(raw);
      if (!answer.success)
        throw new ToolError('the client answered sampling/createMessage with something that is not a message');
      return withContent([text(`LLM response: ${samplingText(answer.data)}`)]);
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description:
      'Conformance fixture: asks the user for a username and an email (elicitation/create) and returns the answer.',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    annotations: READ_ONLY,
    handler: async ({ message }, tc) =>
      withContent([text(`User response: ${described(await elicit(tc, message, USER_INFO_SCHEMA))}`)]),
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Conformance fixture: asks for a form whose fields all carry defaults (SEP-1034).',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async (_args, tc) =>
      withContent([
        text(
          `Elicitation completed: ${described(await elicit(tc, 'Please review and update the form fields with defaults', DEFAULTS_SCHEMA))}`,
        ),
      ]),
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Conformance fixture: asks for a form with the five enum shapes of SEP-1330.',
    input: NoArgs,
    annotations: READ_ONLY,
    handler: async (_args, tc) =>
      withContent([
        text(
          `Elicitation completed: ${described(await elicit(tc, 'Please select options from the enum fields', ENUMS_SCHEMA))}`,
        ),
      ]),
  }),
];

/** The `conformance` adapter: the suite's fixture tools, listed and called by their bare names. */
export const createConformanceAdapter = createAdapterService({
  id: 'conformance',
  version: '0.1.16',
  capability: 'conformance',
  tools,
  bareNames: true,
});
