import { describe, expect, it } from 'vitest';
import { chunkText, DEFAULT_CHUNK_SIZES } from '../../actors/knowledge/chunker.ts';

const sentence = (i: number) => `Sentence number ${i} talks about bolts, welds and fillets in some detail. `;

describe('chunkText', () => {
  it('partitions the text exactly: joined chunks are the text', () => {
    const text = Array.from({ length: 300 }, (_, i) => sentence(i) + (i % 7 === 6 ? '\n\n' : '')).join('');
    const chunks = chunkText(text);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks.slice(0, -1)) {
      expect(c.length).toBeGreaterThanOrEqual(DEFAULT_CHUNK_SIZES.min);
      expect(c.length).toBeLessThanOrEqual(DEFAULT_CHUNK_SIZES.max);
    }
  });

  it('cuts after a blank line when one is in reach, else after a sentence, else between words', () => {
    const paragraphs = Array.from({ length: 10 }, (_, i) => sentence(i).repeat(5).trim()).join('\n\n');
    expect(
      chunkText(paragraphs)
        .slice(0, -1)
        .every((c) => c.endsWith('\n\n')),
    ).toBe(true);

    const oneParagraph = Array.from({ length: 100 }, (_, i) => sentence(i)).join('');
    expect(
      chunkText(oneParagraph)
        .slice(0, -1)
        .every((c) => c.endsWith('. ')),
    ).toBe(true);

    const noSentences = 'word '.repeat(2000);
    const byWords = chunkText(noSentences);
    expect(byWords.slice(0, -1).every((c) => c.endsWith(' ') && Math.abs(c.length - 1500) <= 5)).toBe(true);
  });

  it('hard-cuts text without any boundary near the target, never inside a surrogate pair', () => {
    const dense = '🔩'.repeat(4000);
    const chunks = chunkText(dense);
    expect(chunks.join('')).toBe(dense);
    for (const c of chunks) expect(c.length % 2).toBe(0);
    expect(chunks[0].length).toBeLessThanOrEqual(1500);
  });

  it('keeps a short text whole and gives nothing for an empty one', () => {
    expect(chunkText('short')).toEqual(['short']);
    expect(chunkText('x'.repeat(DEFAULT_CHUNK_SIZES.max))).toHaveLength(1);
    expect(chunkText('')).toEqual([]);
  });
});
