import { describe, expect, it } from 'vitest';
import {
  claimsOf,
  groundReply,
  isTwinWriteTool,
  statusBanner,
  TWIN_WRITE_TOOLS,
  type GroundingInput,
  type GroundingKind,
} from '../../../actors/chat/grounding.ts';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';

type Calls = GroundingInput['toolCalls'];
const NONE: Calls = [];
const FAILED: Calls = [{ tool_id: 'cadkernel.pad_sketch', status: 'error' }];
const CAD_OK: Calls = [{ tool_id: 'cadkernel.pad_sketch', status: 'success' }];
const NATIVE_OK: Calls = [{ tool_id: null, status: 'success' }];
const TWIN_OK: Calls = [{ tool_id: 'twin.commit_geometry', status: 'success' }];
const TWIN_FAILED: Calls = [...CAD_OK, { tool_id: 'twin.commit_geometry', status: 'error' }];
const CYPHER_OK: Calls = [{ tool_id: 'twin.query_cypher', status: 'success' }];
const DECISION_OK: Calls = [{ tool_id: 'twin.record_decision', status: 'success' }];

const kinds = (reply: string, toolCalls: Calls, sources: string[] = []) =>
  groundReply({ reply, toolCalls, sources }).banners.map((b) => b.kind);

/** Replies phrased like the chat's own, each with the turn's calls and the banners rule 7 asks for. */
const TABLE: [reply: string, calls: Calls, expected: GroundingKind[]][] = [
  // Past-tense reports with no successful call.
  ["I've created the mounting bracket with four M6 clearance holes.", NONE, ['no_tool_call']],
  ['The STEP file was exported to outputs/bracket.step.', NONE, ['no_tool_call']],
  ['Assembled the gearbox housing from the two shell halves.', NONE, ['no_tool_call']],
  ['I generated a second-order tetrahedral mesh with 48,210 elements.', NONE, ['no_tool_call']],
  ['A 2 mm fillet has been added to all outer edges.', NONE, ['no_tool_call']],
  ['I designed the heat sink around a 40 W dissipation budget.', NONE, ['no_tool_call']],
  ['Built the parametric enclosure: 120 x 80 x 40 mm with 2.5 mm walls.', NONE, ['no_tool_call']],
  ['- Created a sketch on the XY plane\n- Padded it 10 mm', NONE, ['no_tool_call']],
  ['Done! The load case has been recorded.', NONE, ['no_tool_call']],
  ['The mesh was generated with a 1.5 mm global size.', FAILED, ['no_tool_call']],
  ["I didn't find an existing bracket, so I created a new one.", NONE, ['no_tool_call']],
  ['I created the sketch, then I padded it 8 mm.', NONE, ['no_tool_call']],
  ['The plate was designed for 250 MPa. Should I add ribs?', NONE, ['no_tool_call']],
  ['Summary:\n1. Created the base plate\n2. Added four M6 holes\n3. Exported bracket.step', NONE, ['no_tool_call']],
  // The same reports with a successful call (a native tool counts).
  ["I've created the mounting bracket with four M6 clearance holes.", CAD_OK, []],
  ['The STEP file was exported to outputs/bracket.step.', NATIVE_OK, []],
  ['Summary:\n1. Created the base plate\n2. Added four M6 holes\n3. Exported bracket.step', CAD_OK, []],
  ['I committed the change to the repository.', CAD_OK, []],
  // Claimed twin writes.
  ['I committed the bracket geometry as revision 2.', NONE, ['no_tool_call', 'twin_write']],
  ['I committed the bracket geometry as revision 2.', CAD_OK, ['twin_write']],
  ['I committed the bracket geometry as revision 2.', TWIN_OK, []],
  ['The constraint set was recorded in the digital twin.', CAD_OK, ['twin_write']],
  ['I exported the STEP file and committed it to the twin.', TWIN_FAILED, ['twin_write']],
  ['Created the enclosure and added it to the twin.', CYPHER_OK, ['twin_write']],
  ['I recorded the design decision in the twin.', DECISION_OK, []],
  ['The baseline has been committed.', CAD_OK, ['twin_write']],
  ["I've added the part to the assembly, and the twin now holds revision 3.", CAD_OK, ['twin_write']],
  ["I exported the STEP file, but it isn't in the twin yet.", CAD_OK, []],
  // Questions.
  ['Should I export the bracket as STEP or STL?', NONE, []],
  ['Have you already created a constraint set for the load cases?', NONE, []],
  ['Want me to commit the geometry to the twin?', NONE, []],
  // Negations.
  ['The fillet was not added because the radius exceeds half the wall thickness.', NONE, []],
  ['Nothing was committed to the twin.', NONE, []],
  ['No geometry has been exported yet.', NONE, []],
  ['The mesh could not be generated because gmsh reported a self-intersecting face.', NONE, []],
  ['The assembly has never been exported.', NONE, []],
  ['The export failed to write bracket.step, so nothing was exported.', NONE, []],
  // Plans.
  ['I will create the base plate first and then add the ribs.', NONE, []],
  ["Next I'll pad the sketch 12 mm and commit the geometry to the twin.", NONE, []],
  ["I'm going to generate the mesh when the geometry is final.", NONE, []],
  ['Let me check the constraint set before anything is committed.', NONE, []],
  ['I plan to export STEP and STL after you approve the drawing.', NONE, []],
  // Offers and conditionals.
  ['Would you like me to add 1 mm chamfers to the outer edges?', NONE, []],
  ['If you want, I can export the assembly as a STEP file.', NONE, []],
  ['I can have it committed to the twin as the next revision.', NONE, []],
  ['Once the mesh is generated, the FEA runs with the face at x = 0 fixed.', NONE, []],
  ['If the bracket is assembled with M6 bolts, the preload must stay under 9 kN.', NONE, []],
  // No completion verb, or the verb only in code.
  ["The bracket's first natural frequency is 212 Hz, above the 150 Hz target.", NONE, []],
  ["The node's `created_at` is 2024-05-01 and its `status` is `committed`.", NONE, []],
  ['```json\n{"status": "committed", "note": "exported"}\n```', NONE, []],
];

describe('groundReply: the claim table', () => {
  it('has at least 40 rows, claims and non-claims', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    expect(TABLE.filter(([, , e]) => e.length).length).toBeGreaterThan(10);
    expect(TABLE.filter(([, , e]) => !e.length).length).toBeGreaterThan(10);
  });

  it.each(TABLE)('%j with %j -> %j', (reply, calls, expected) => {
    expect(kinds(reply, calls)).toEqual(expected);
  });
});

const UUID = '3f1c2a9e-7b4d-4c1e-9a6f-0d2b8e5c7a11';
const ID_REPLY = `The bracket geometry is node \`${UUID}\`.`;

describe('groundReply: quoted node ids', () => {
  it('an id no source contains is banned, with the ids', () => {
    const r = groundReply({ reply: ID_REPLY, toolCalls: CAD_OK, sources: ['{"node_id":"other"}'] });
    expect(r.banners).toEqual([{ kind: 'node_id', text: expect.stringContaining(UUID), ids: [UUID] }]);
  });

  describe.each([
    ['a successful call result', `{"status":"success","data":{"node_id":"${UUID}"}}`],
    ['a user message', `Please update ${UUID} with the new hole pattern`],
    ['the system prompt', `Project twin head: ${UUID}`],
    ['the history', `assistant: The bracket is ${UUID}.`],
    ['the project brief', `Reuse the approved bracket ${UUID} from phase 1.`],
  ])('grounded in %s', (_source, text) => {
    it('gets no banner', () => {
      expect(kinds(ID_REPLY, CAD_OK, ['unrelated', text])).toEqual([]);
    });
  });

  it.each([
    ['backticks', '`CAD-BRACKET-7K2Q`', 'CAD-BRACKET-7K2Q'],
    ['double quotes', '"CS-LOADS-A1B2"', 'CS-LOADS-A1B2'],
    ['curly quotes', '“PRD-DRONE-9XQ1@2”', 'PRD-DRONE-9XQ1@2'],
    ['single quotes', "'REQ-STRESS'", 'REQ-STRESS'],
  ])('an item key in %s is an id', (_how, quoted, id) => {
    const reply = `The requirement lives in ${quoted}.`;
    expect(groundReply({ reply, toolCalls: CAD_OK, sources: [] }).banners[0].ids).toEqual([id]);
    expect(kinds(reply, CAD_OK, [`{"item_ref":"${id}"}`])).toEqual([]);
  });

  it('a ref is grounded only verbatim; a uuid regardless of case', () => {
    expect(kinds('Head is `CAD-BRACKET-7K2Q@3`.', CAD_OK, ['CAD-BRACKET-7K2Q@2'])).toEqual(['node_id']);
    expect(kinds(ID_REPLY, CAD_OK, [UUID.toUpperCase()])).toEqual([]);
  });

  it.each([
    ['The bracket is node `part_3` in the twin.'],
    ['Committed; its node_id is `assembly_1`.'],
    ['The twin node is "body_2".'],
  ])('a session object id presented as a node id is never grounded: %s', (reply) => {
    const r = groundReply({ reply, toolCalls: [...CAD_OK, ...TWIN_OK], sources: ['part_3 assembly_1 body_2'] });
    expect(r.banners.map((b) => b.kind)).toEqual(['node_id']);
    expect(r.banners[0].ids).toHaveLength(1);
  });

  it.each([
    ['I padded `sketch_1` 10 mm into `part_3`.'],
    ['The enclosure follows `ISO-2768` class m.'],
    ["The bracket's 'M6' holes are on a 40 mm pitch."],
    ['Should I update `CAD-BRACKET-7K2Q`?'],
    ['I could not find `CAD-BRACKET-7K2Q`.'],
  ])('no node-id check: %s', (reply) => {
    expect(kinds(reply, CAD_OK)).toEqual([]);
  });

  it('lists each unverified id once, in the order the reply quotes them', () => {
    const reply = 'Updated `CS-LOADS-A1B2` and `CAD-PLATE-0001`. Then `CS-LOADS-A1B2` again, and `CAD-OK-1`.';
    const r = groundReply({ reply, toolCalls: CAD_OK, sources: ['CAD-OK-1'] });
    expect(r.banners[0].ids).toEqual(['CS-LOADS-A1B2', 'CAD-PLATE-0001']);
  });
});

describe('groundReply: banners and the text', () => {
  const reply = `I committed the geometry to the twin as node \`${UUID}\`.`;

  it('orders no_tool_call, twin_write, node_id and prepends one line each, then a blank line', () => {
    const r = groundReply({ reply, toolCalls: NONE, sources: [] });
    expect(r.banners.map((b) => b.kind)).toEqual(['no_tool_call', 'twin_write', 'node_id']);
    expect(r.banners.every((b) => b.text.startsWith('> ⚠ ') && !b.text.includes('\n'))).toBe(true);
    expect(r.text).toBe(`${r.banners.map((b) => b.text).join('\n')}\n\n${reply}`);
  });

  it('only the first banner changes a phase status', () => {
    expect(statusBanner(groundReply({ reply, toolCalls: NONE, sources: [] }).banners)?.kind).toBe('no_tool_call');
    expect(statusBanner(groundReply({ reply, toolCalls: CAD_OK, sources: [] }).banners)?.kind).toBe('twin_write');
    expect(statusBanner(groundReply({ reply, toolCalls: TWIN_OK, sources: [] }).banners)?.kind).toBe('node_id');
    expect(statusBanner([])).toBeNull();
  });

  it('a reply with no claims and no ids is left unchanged', () => {
    const plain = 'The first mode is 212 Hz.\n\nShould I run a modal study with 6 modes?';
    expect(groundReply({ reply: plain, toolCalls: NONE, sources: [] })).toEqual({ text: plain, banners: [] });
  });

  it('claimsOf names the claim clauses only', () => {
    expect(claimsOf("I didn't find a bracket, so I created one. I will export it next.")).toEqual([
      'so I created one.',
    ]);
  });
});

describe('isTwinWriteTool', () => {
  it("lists exactly the catalogue's twin writes (classes A and D)", () => {
    const writes = [...TOOL_CATALOGUE.values()]
      .filter((e) => e.adapter === 'twin' && (e.cls === 'A' || e.cls === 'D'))
      .map((e) => e.id);
    expect([...TWIN_WRITE_TOOLS].sort()).toEqual(writes.sort());
  });

  it.each([
    ['twin.commit_geometry', true],
    ['twin.record_document', true],
    ['twin.create_link', true],
    ['twin.query_cypher', false],
    ['twin.get_node', false],
    ['project.create', false],
    [null, false],
  ] as const)('%s -> %s', (id, expected) => {
    expect(isTwinWriteTool(id)).toBe(expected);
  });
});
