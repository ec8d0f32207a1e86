import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 36 point 2: docs/decisions/ holds one short record per choice made where the spec is silent, numbered and
 * dated, each with its context, decision and consequences, and the README's index lists every one of them. The
 * records are read as git tracks them, so a record added without its index line (or the reverse) fails here.
 */
const root = path.resolve(import.meta.dirname, '../..');
const DIR = 'docs/decisions';

/** The tracked record files (`NNNN-topic.md`), by name. */
function trackedRecords(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', DIR], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .map((f) => path.posix.basename(f))
    .filter((f) => /^\d{4}-[a-z0-9-]+\.md$/.test(f))
    .sort();
}

const read = (name: string): string => fs.readFileSync(path.join(root, DIR, name), 'utf8');

/** The record files the index links to (`[title](NNNN-topic.md)`), in the order it lists them. */
function indexedRecords(index: string): string[] {
  return [...index.matchAll(/\]\((\d{4}-[a-z0-9-]+\.md)\)/g)].map((m) => m[1]!);
}

/** What a record lacks of the agreed shape: the title naming its number, a date, the three headings in order. */
function shapeProblems(name: string, text: string): string[] {
  const problems: string[] = [];
  const num = name.slice(0, 4);
  if (!new RegExp(`^# ${num}\\b`).test(text)) problems.push(`${name}: the first line is not "# ${num} <title>"`);
  if (!/^Date: \d{4}-\d{2}-\d{2}\b/m.test(text)) problems.push(`${name}: no "Date: YYYY-MM-DD" line`);
  const at = ['Context', 'Decision', 'Consequences'].map((h) => {
    const i = text.search(new RegExp(`^## ${h}\\s*$`, 'm'));
    if (i < 0) problems.push(`${name}: no "## ${h}" heading`);
    return i;
  });
  if (at.every((i) => i >= 0) && !(at[0]! < at[1]! && at[1]! < at[2]!))
    problems.push(`${name}: the headings are not in the order Context, Decision, Consequences`);
  return problems;
}

describe('decision records (docs/decisions)', () => {
  it('the index lists every tracked record once, and links to no record that is not tracked', () => {
    const records = trackedRecords();
    expect(records.length).toBeGreaterThan(0);
    const listed = indexedRecords(read('README.md'));
    expect(
      records.filter((r) => !listed.includes(r)),
      'records missing from the index',
    ).toEqual([]);
    expect(
      listed.filter((r) => !records.includes(r)),
      'index lines naming no tracked record',
    ).toEqual([]);
    expect(
      listed.filter((r, i) => listed.indexOf(r) !== i),
      'records listed twice',
    ).toEqual([]);
  });

  it('no two records share a number', () => {
    const nums = trackedRecords().map((r) => r.slice(0, 4));
    expect(nums.filter((n, i) => nums.indexOf(n) !== i)).toEqual([]);
  });

  it('every record has its numbered title, a date, and the context, decision and consequences headings', () => {
    expect(trackedRecords().flatMap((r) => shapeProblems(r, read(r)))).toEqual([]);
  });

  it('the shape check refuses a record without its consequences, its date or its number', () => {
    const good = '# 0999 A choice\n\nDate: 2026-11-28\n\n## Context\n\nx\n\n## Decision\n\ny\n\n## Consequences\n\nz\n';
    expect(shapeProblems('0999-a-choice.md', good)).toEqual([]);
    expect(shapeProblems('0999-a-choice.md', good.replace('## Consequences', '## Test'))).toEqual([
      '0999-a-choice.md: no "## Consequences" heading',
    ]);
    expect(shapeProblems('0999-a-choice.md', good.replace('Date: 2026-11-28\n', ''))).toHaveLength(1);
    expect(shapeProblems('0998-a-choice.md', good)).toHaveLength(1);
    const swapped = good
      .replace('## Context', '## Tmp')
      .replace('## Decision', '## Context')
      .replace('## Tmp', '## Decision');
    expect(shapeProblems('0999-a-choice.md', swapped)).toEqual([
      '0999-a-choice.md: the headings are not in the order Context, Decision, Consequences',
    ]);
  });

  it('the index reader finds links and nothing else', () => {
    expect(
      indexedRecords('- [0010 A](0010-a.md)\n- see [api](../api.md) and 0011-b.md\n- [0012: C](0012-c-d.md)'),
    ).toEqual(['0010-a.md', '0012-c-d.md']);
  });
});
