import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The code map (ISSUE 13 point 2, docs/code-map.md since issue 36) names every actor folder and nothing that is gone, so it cannot drift. */
const root = new URL('../../', import.meta.url);
const readme = fs.readFileSync(new URL('README.md', root), 'utf8');
/** README's folder map (ten lines, issue 36) and docs/code-map.md, one line per actor. */
const folderMap = /^## Folders\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
const map = fs.readFileSync(new URL('docs/code-map.md', root), 'utf8');

const folders = (dir: string) =>
  fs
    .readdirSync(new URL(dir, root), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
    .map((d) => d.name)
    .sort();

/** Folders the map gives a line of their own: "- `actors/x/`: ..." (the backticked path opens the line). */
const lines = (prefix: string, text = map) =>
  [...text.matchAll(/^\s*- `([a-z0-9/-]+)\/`/gm)]
    .map((m) => m[1])
    .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
    .map((p) => p.slice(prefix.length))
    .sort();

describe('the README code map', () => {
  it('has a section', () => {
    expect(map.length).toBeGreaterThan(0);
    expect(folderMap.length).toBeGreaterThan(0);
  });

  it('has one line per actor folder (ls actors), and none for a folder that is gone', () => {
    expect(lines('actors/')).toEqual(folders('actors/'));
  });

  it('has one line per adapter folder (ls actors/adapters), and none for a folder that is gone', () => {
    expect(lines('actors/adapters/')).toEqual(folders('actors/adapters/'));
  });

  it('has one line per top-level code folder', () => {
    const top = folders('./').filter((name) => !['dist', 'coverage', 'test-results'].includes(name));
    expect(lines('')).toEqual(top);
  });

  it("README's folder map has one line per top-level folder, ten lines at most", () => {
    const top = folders('./').filter((name) => !['dist', 'coverage', 'test-results'].includes(name));
    expect(lines('', folderMap)).toEqual(top);
    expect(folderMap.trim().split('\n').length).toBeLessThanOrEqual(10);
  });

  it('README.md is at most 250 lines', () => {
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(250);
  });
});
