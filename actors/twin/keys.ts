import crypto from 'node:crypto';
import { KEY_PREFIX } from '../../contracts/twin-keys.ts';

const KEY_RE = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

/** `KEY` or `KEY@n`. */
export interface ItemRef {
  key: string;
  revision?: number;
}

/** Parses `KEY` or `KEY@n`; undefined when the text is neither. */
export function parseItemRef(text: string): ItemRef | undefined {
  const m = /^([^@\s]+)(?:@(\d+))?$/.exec(text.trim());
  if (!m || !KEY_RE.test(m[1])) return undefined;
  return m[2] === undefined ? { key: m[1] } : { key: m[1], revision: Number(m[2]) };
}

export const refOf = (key: string, revision: number) => `${key}@${revision}`;

/** A new, readable, unique key: `CAD-BRACKET-7K2Q` (prefix, a slug of the name, four random characters). */
export function newItemKey(itemType: string, name: string): string {
  const prefix = KEY_PREFIX[itemType] ?? 'ITM';
  const slug = name
    .toUpperCase()
    .normalize('NFKD')
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  const rand = crypto
    .randomBytes(3)
    .toString('base64url')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, 'X')
    .slice(0, 4);
  return [prefix, slug, rand].filter(Boolean).join('-');
}
