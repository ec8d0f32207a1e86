import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slimBoardText } from '../../../../actors/adapters/eda/board-slim.ts';
import { parseBoard } from '../../../../workers/eda/board.ts';

// Decision 0150: the native check of a board reads it without its zone fills and embedded files (vme-wren's full
// text ran the reader's 512 MB thread out of memory). What the reader returns must not change, lines keep their
// numbers, and a `)` inside a string or a block that never closes cannot make the cut wrong.
const DEMOS = '/usr/share/kicad/demos';
const boards = fs.existsSync(DEMOS)
  ? fs
      .readdirSync(DEMOS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.kicad_pcb'))
      .filter((f) => fs.statSync(path.join(DEMOS, f)).size < 10 * 1024 * 1024)
      .sort()
  : [];

describe('slimBoardText', () => {
  it('cuts filled_polygon and embedded_files blocks, keeping line ends and strings holding parentheses', () => {
    const text = [
      '(kicad_pcb (version 20241229)',
      '  (zone (net 1) (filled_polygon (layer "F.Cu")',
      '     (pts (xy 0 0) (xy 1 1)))',
      '   (filled_polygons_not (a)))',
      '  (embedded_files (file (name "x)(") (data "YWJj)")))',
      '  (embedded_fonts no))',
    ].join('\n');
    const slim = slimBoardText(text);
    expect(slim).toBe(
      [
        '(kicad_pcb (version 20241229)',
        '  (zone (net 1) (filled_polygon',
        ')',
        '   (filled_polygons_not (a)))',
        '  (embedded_files)',
        '  (embedded_fonts no))',
      ].join('\n'),
    );
    expect(slim.split('\n')).toHaveLength(text.split('\n').length);
  });

  it('leaves a block that never closes as it is', () => {
    const text = '(kicad_pcb (zone (filled_polygon (pts (xy 0 0)';
    expect(slimBoardText(text)).toBe(text);
  });

  it.each(boards)('%s: the reader returns the same board from the slim text', (rel) => {
    const text = fs.readFileSync(path.join(DEMOS, rel), 'utf8');
    const slim = slimBoardText(text);
    expect(slim.split('\n')).toHaveLength(text.split('\n').length);
    expect(parseBoard(slim, rel)).toEqual(parseBoard(text, rel));
  });
});
