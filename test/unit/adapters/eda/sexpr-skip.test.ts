import { describe, expect, it } from 'vitest';
import { parseSexpr, SexprError } from '../../../../workers/eda/sexpr.ts';

/**
 * The schematic reader leaves out the lists no tool reads (text effects, strokes, graphics: about half of a KiCad 9
 * file's lists), yet still refuses a file whose skipped part is malformed, naming the line.
 */
const SKIP = new Set(['effects', 'stroke']);

describe('parseSexpr with lists to skip', () => {
  it('drops a skipped list and everything in it, strings with parentheses included', () => {
    const text =
      '(kicad_sch (label "A" (at 1 2 0) (effects (font (size 1 1)) (justify "x)(" left))) (stroke (width 0)))';
    expect(parseSexpr(text, undefined, SKIP)).toEqual(['kicad_sch', ['label', 'A', ['at', '1', '2', '0']]]);
    expect(parseSexpr(text)).toEqual([
      'kicad_sch',
      ['label', 'A', ['at', '1', '2', '0'], ['effects', ['font', ['size', '1', '1']], ['justify', 'x)(', 'left']]],
      ['stroke', ['width', '0']],
    ]);
  });

  it('refuses an unclosed skipped list or an unterminated string in it, with the line', () => {
    const unclosed = () => parseSexpr('(kicad_sch\n (effects (font (size 1 1))\n', undefined, SKIP);
    expect(unclosed).toThrow(SexprError);
    expect(unclosed).toThrow(/unexpected end of file/);
    const unterminated = () => parseSexpr('(kicad_sch\n\n (effects "abc)))', undefined, SKIP);
    expect(unterminated).toThrow(/line 3: unterminated string/);
  });

  it('never skips the top-level list, and counts the lists inside a skipped one', () => {
    expect(() => parseSexpr('(effects (a))', undefined, SKIP)).not.toThrow();
    let tokens = 0;
    parseSexpr('(k (effects (a (b)) c))', { token: () => void tokens++ }, SKIP);
    // k's list, k, effects' list, effects, a's list, b's list.
    expect(tokens).toBe(6);
  });
});
