import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone (issue 37): no tracked file names a folder of the machine it was written on (the shared
 * folder beside the checkout, home folders, mount points), and every relative link of the README and docs/ lands on a
 * tracked file. System paths that are real configuration defaults (/usr/..., /etc/..., /tmp, /dev, /proc) are fine.
 * The patterns are written so that this file does not match itself (`\/` in a regex literal, joined strings below).
 */
const root = path.resolve(import.meta.dirname, '../..');

/** What a machine path looks like; the lookbehind keeps URLs (`https://host/work/...`) and `a/home/b` out. */
const MACHINE_PATHS: readonly { what: string; re: RegExp }[] = [
  { what: 'the development machine folder', re: /(?<![\w.~-])\/work\//g },
  { what: 'a home folder', re: /(?<![\w.~-])\/home\/[\w.-]+/g },
  { what: "root's home folder", re: /(?<![\w.~-])\/root\//g },
  { what: 'a macOS home folder', re: /(?<![\w.~-])\/Users\//g },
  { what: 'a mount point', re: /(?<![\w.~-])\/mnt\//g },
  { what: 'a Windows home folder', re: /\b[A-Za-z]:(?:\\{1,2}|\/)Users\b/g },
  { what: 'a folder beside the repository', re: /(?<![\w.-])(?:\.\.\/)+shared\b/g },
];

interface Hit {
  file: string;
  line: number;
  what: string;
  text: string;
}

/** The machine paths in one file's text, with their line numbers. */
function machinePaths(file: string, text: string): Hit[] {
  const hits: Hit[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { what, re } of MACHINE_PATHS)
      for (const m of line.matchAll(re)) hits.push({ file, line: i + 1, what, text: m[0] });
  });
  return hits;
}

/** The tracked files (git ls-files), as the clone CI runs in has them. */
const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);

/** A tracked file's text, or undefined for a binary or compressed one (a NUL byte) or one deleted in the checkout. */
function textOf(rel: string): string | undefined {
  if (/\.(gz|tgz|zip|png|jpe?g|gif|ico|woff2?|pdf|wasm|step|stp|stl|glb)$/i.test(rel)) return undefined;
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path.join(root, rel));
  } catch {
    return undefined; // tracked but removed in this working tree
  }
  return buf.subarray(0, 8192).includes(0) ? undefined : buf.toString('utf8');
}

/** Relative link targets of a Markdown text: inline `[t](target)` and reference `[t]: target`, without #fragment. */
function relativeLinks(text: string): string[] {
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
  ];
  return targets
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#') && !t.startsWith('/'))
    .map((t) => decodeURI(t.replace(/[#?].*$/, '')))
    .filter(Boolean);
}

/** Why `target` (linked from `from`, both relative to the root) does not land on a tracked file or folder, or null. */
function brokenLink(from: string, target: string, files: ReadonlySet<string>): string | null {
  const rel = path.posix.normalize(path.posix.join(path.posix.dirname(from), target)).replace(/\/$/, '');
  if (rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel)) return `${target} leaves the repository`;
  if (files.has(rel) || [...files].some((f) => f.startsWith(`${rel}/`))) return null;
  return `${target} is not a tracked file or folder`;
}

const j = (...parts: string[]) => parts.join('/');

describe('machine paths', () => {
  it('are found in hostile text: each kind, on its line', () => {
    const text = [
      `see ${j('', 'work', 'shared', 'spec', 'SPEC.md')}`,
      `HOME=${j('', 'home', 'alice')} and ${j('', 'root', '.cache')}`,
      `${j('', 'Users', 'bob')} ${j('', 'mnt', 'data')} C:${'\\'}Users${'\\'}x and C:${'\\\\'}Users`,
      `the spec is ${j('..', 'shared', 'spec')} or ${j('..', '..', 'shared')}`,
    ].join('\n');
    const hits = machinePaths('x.md', text);
    expect(hits.map((h) => [h.line, h.what])).toEqual([
      [1, 'the development machine folder'],
      [2, 'a home folder'],
      [2, "root's home folder"],
      [3, 'a macOS home folder'],
      [3, 'a mount point'],
      [3, 'a Windows home folder'],
      [3, 'a Windows home folder'],
      [4, 'a folder beside the repository'],
      [4, 'a folder beside the repository'],
    ]);
  });

  it('leave system defaults, URLs and in-repository relative paths alone', () => {
    const text = [
      '/usr/bin/python3 /usr/share/kicad/demos /etc/postgresql /tmp/x /dev/null /proc/self',
      `https://example.org${j('', 'work', 'x')} and a${j('', 'home', 'b')} and ~${j('', 'mnt', 'c')}`,
      '../kit/sandbox.ts and docs/decisions/ and the shared folder and shared/ session state',
    ].join('\n');
    expect(machinePaths('x.md', text)).toEqual([]);
  });

  it('appear in no tracked file', () => {
    const files = tracked();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) => {
      const text = textOf(f);
      return text === undefined ? [] : machinePaths(f, text);
    });
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.what}: ${h.text}`)).toEqual([]);
  });
});

describe('links of the README and docs/', () => {
  const files = new Set(tracked());

  it('are checked: a link out of the repository or to a missing file is refused', () => {
    const text = `[a](${j('..', 'shared', 'x.md')}) [b](missing.md#top) [c](https://x.org/y) [d](#anchor)\n[e]: docs/\n`;
    const links = relativeLinks(text);
    expect(links).toEqual([j('..', 'shared', 'x.md'), 'missing.md', 'docs/']);
    expect(links.map((t) => brokenLink('README.md', t, files))).toEqual([
      `${j('..', 'shared', 'x.md')} leaves the repository`,
      'missing.md is not a tracked file or folder',
      null,
    ]);
    expect(brokenLink('docs/api.md', '../README.md', files)).toBeNull();
    expect(brokenLink('docs/api.md', '../../README.md', files)).toBe('../../README.md leaves the repository');
  });

  it('each land on a tracked file or folder inside the repository', () => {
    const docs = [...files].filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(docs.length).toBeGreaterThan(5);
    const broken = docs.flatMap((f) => {
      const text = textOf(f);
      if (text === undefined) return [];
      return relativeLinks(text).flatMap((t) => {
        const why = brokenLink(f, t, files);
        return why ? [`${f}: ${why}`] : [];
      });
    });
    expect(broken).toEqual([]);
  });
});

/** GitHub's anchors of a Markdown text's headings (outside code fences): lower case, punctuation dropped, `-` for spaces. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Links with a `#fragment` to a Markdown file (or to the same file), each as [file relative to the root, fragment]. */
function anchoredLinks(from: string, text: string): [string, string, string][] {
  return [...text.matchAll(/\]\(\s*<?([^)\s>]*#[^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
    .map((t): [string, string, string] => {
      const [file, frag] = [t.slice(0, t.indexOf('#')), t.slice(t.indexOf('#') + 1)];
      return [t, file ? path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURI(file))) : from, frag];
    })
    .filter(([, file]) => file.endsWith('.md'));
}

describe('anchors of the README and docs/', () => {
  it('are checked: a fragment that names no heading of its file is found', () => {
    const text =
      '# API\n\n## Error body and statuses\n\n```\n# not a heading\n```\n\n## Approvals queue (and held calls)\n## API\n';
    expect([...anchorsOf(text)]).toEqual(['api', 'error-body-and-statuses', 'approvals-queue-and-held-calls', 'api-1']);
    const links = anchoredLinks('docs/mcp.md', '[a](api.md#errors) [b](#tools) [c](../README.md#set-up) [d](x.ts#L3)');
    expect(links).toEqual([
      ['api.md#errors', 'docs/api.md', 'errors'],
      ['#tools', 'docs/mcp.md', 'tools'],
      ['../README.md#set-up', 'README.md', 'set-up'],
    ]);
    expect(anchorsOf(text).has('not-a-heading')).toBe(false);
  });

  it('each name a heading of the file they link to', () => {
    const files = tracked().filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    const broken = files.flatMap((f) =>
      anchoredLinks(f, textOf(f) ?? '').flatMap(([link, file, frag]) => {
        const target = textOf(file);
        if (target === undefined) return [`${f}: ${link}: ${file} is not a file`];
        return anchorsOf(target).has(decodeURIComponent(frag)) ? [] : [`${f}: ${link}: no heading #${frag}`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
