import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ProviderIdSchema } from '../../../contracts/harness.ts';
import { CredentialStatusSchema } from '../../../contracts/harness-config.ts';

/**
 * The credentials file (SERVICE_CREDENTIALS_PATH): JSON `{version: 1, credentials: [...]}`, each entry the key in full
 * with its provider, label, base URL, status and dates. Written atomically (a temporary file in the same folder,
 * created with mode 600, renamed over the old one) so a reader never sees half a file and the key is never
 * readable by group or others, not even for an instant. The operator may also provide it (a Kubernetes Secret).
 */

export const StoredCredentialSchema = z.object({
  id: z.string().min(1),
  provider: ProviderIdSchema,
  label: z.string().nullable().default(null),
  api_key: z.string().min(1),
  base_url: z.string().nullable().default(null),
  status: CredentialStatusSchema.default('healthy'),
  created_at: z.string(),
  dead_at: z.string().nullable().default(null),
});
export type StoredCredential = z.infer<typeof StoredCredentialSchema>;

const FileSchema = z.object({ version: z.literal(1), credentials: z.array(StoredCredentialSchema) });

export type FileRead = { ok: true; credentials: StoredCredential[]; loose: boolean } | { ok: false; error: string };

/** Reads the file: absent is an empty store; unreadable or malformed is an error naming the file (never its content). */
export async function readCredentialsFile(file: string): Promise<FileRead> {
  let text: string;
  let mode: number;
  try {
    [text, mode] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file).then((s) => s.mode)]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: true, credentials: [], loose: false };
    return { ok: false, error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: `${file} is not JSON` };
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    return { ok: false, error: `${file} is not a credentials file ({version: 1, credentials: [...]}): bad ${where}` };
  }
  const loose = process.platform !== 'win32' && (mode & 0o077) !== 0;
  return { ok: true, credentials: parsed.data.credentials, loose };
}

/** Writes the file atomically with owner-only permissions (its folder created owner-only when missing). */
export async function writeCredentialsFile(file: string, credentials: StoredCredential[]): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, credentials }, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.chmod(tmp, 0o600); // open's mode passes through the umask, which may only narrow it; said once more
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
