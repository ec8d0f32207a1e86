import { z } from 'zod';

/** The form `test_elicitation` asks for (conformance scenario tools-call-elicitation). */
export const USER_INFO_SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

/** A form with a default for every primitive type (SEP-1034; scenario elicitation-sep1034-defaults). */
export const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Your name', default: 'John Doe' },
    age: { type: 'integer', description: 'Your age', default: 30 },
    score: { type: 'number', description: 'Your score', default: 95.5 },
    status: { type: 'string', description: 'Your status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verified?', default: true },
  },
};

/** The five enum shapes of SEP-1330 (scenario elicitation-sep1330-enums): untitled, titled, legacy enumNames, and two multi-selects. */
export const ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Pick one (titled)',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Pick one (legacy titles)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Pick several',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Pick several (titled)',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** The client's answer to `elicitation/create`. */
export const ElicitAnswerSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

/** The client's answer to `sampling/createMessage`: one content block or (2025-11-25) several. */
export const SamplingAnswerSchema = z.looseObject({
  model: z.string().optional(),
  content: z.union([
    z.looseObject({ type: z.string(), text: z.string().optional() }),
    z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  ]),
});

/** The text of a sampling answer: its text blocks joined, or a note naming the block types when there is no text. */
export function samplingText(answer: z.output<typeof SamplingAnswerSchema>): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  const text = blocks.flatMap((b) => (b.type === 'text' && b.text !== undefined ? [b.text] : [])).join('\n');
  return text || `(no text; content types ${blocks.map((b) => b.type).join(', ')})`;
}
