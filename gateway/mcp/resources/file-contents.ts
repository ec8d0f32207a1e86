import path from 'node:path';
import type { McpResourceContents } from '../../../contracts/mcp-features.ts';

/** Largest stored file served inline as a resource; bigger ones are fetched from the HTTP file route instead. */
export const MAX_RESOURCE_FILE_BYTES = 16 * 1024 * 1024;

/** Media types whose bytes are text. */
const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|step|x-step)\b|.*\+(json|xml)\b|model\/step\b)/i;

/** Extensions of the text formats the tools write (STEP, KiCad, CalculiX, SPICE, SVG, Markdown, ...). */
const TEXT_EXT = new Set([
  'step',
  'stp',
  'kicad_sch',
  'kicad_pcb',
  'kicad_pro',
  'net',
  'cir',
  'sp',
  'inp',
  'frd',
  'dat',
  'vtu',
  'svg',
  'md',
  'txt',
  'csv',
  'json',
  'yaml',
  'yml',
  'xml',
  'obj',
  'gbr',
  'drl',
]);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when the type or name says text and they are valid UTF-8 without NUL; else undefined. */
function asText(bytes: Buffer, mediaType: string, name: string): string | undefined {
  const ext = path.posix.extname(name).slice(1).toLowerCase();
  if (!TEXT_TYPE.test(mediaType) && !TEXT_EXT.has(ext)) return undefined;
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** MCP contents of a stored file: text as `text`, anything else as base64 `blob`, with its media type. */
export function fileContents(uri: string, bytes: Buffer, mediaType: string, name: string): McpResourceContents[] {
  const text = asText(bytes, mediaType, name);
  if (text !== undefined)
    return [{ uri, mimeType: !mediaType || /octet-stream/.test(mediaType) ? 'text/plain' : mediaType, text }];
  return [{ uri, mimeType: mediaType || 'application/octet-stream', blob: bytes.toString('base64') }];
}
