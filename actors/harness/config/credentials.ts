import crypto from 'node:crypto';
import type { Logger } from '../../../brokers/logger.ts';
import { ActorError } from '../../../brokers/errors.ts';
import type { CredentialCreate, CredentialMasked } from '../../../contracts/harness-config.ts';
import { readCredentialsFile, writeCredentialsFile, type StoredCredential } from './credentials.file.ts';

/**
 * The credential pool (SPEC Authentication rule 7): several keys per provider, the file behind them (or memory only
 * when `file` is null), and their state. A conversation or run is pinned to one credential by a key; a 401 or 403
 * marks the credential dead and the pin moves to the next healthy one; a 429 moves the pin on without marking it.
 * No key ever leaves this module but through `pickCredential`, in process, to the calls part.
 */

/** What a model call did with a credential: `auth_failed` for a 401/403, `rate_limited` for a 429. */
export type CredentialOutcome = 'ok' | 'auth_failed' | 'rate_limited';

/** A credential handed to the calls part for one call (the key in full: never logged, never on the bus). */
export interface PickedCredential {
  id: string;
  provider: string;
  api_key: string;
  base_url: string | null;
}

/** Pins kept at most (the oldest pin is forgotten first; a forgotten pin is simply picked again). */
const MAX_PINS = 10_000;

export const maskKey = (key: string) => (key.length >= 12 ? key.slice(-4) : '');

export function mask(c: StoredCredential): CredentialMasked {
  const { id, provider, label, base_url, status, created_at } = c;
  return { id, provider, label, last4: maskKey(c.api_key), base_url, status, created_at };
}

export function createCredentialPool(opts: {
  file: string | null;
  log: Logger;
  now: () => Date;
  /** Told every key the pool holds (loaded or added), for the harness's redactor. */
  onKey?(key: string): void;
}) {
  let creds: StoredCredential[] = [];
  let loadError: string | null = null;
  const pins = new Map<string, string>();
  const cursor = new Map<string, string>();
  let writing: Promise<unknown> = Promise.resolve();

  /** Persists the pool (one write at a time); memory-only pools have nothing to write. */
  function persist(): Promise<void> {
    if (!opts.file) return Promise.resolve();
    const file = opts.file;
    const snapshot = creds.map((c) => ({ ...c }));
    const next = writing.then(() => writeCredentialsFile(file, snapshot));
    writing = next.catch(() => undefined);
    return next;
  }

  /** The provider's credentials in the order they were added; the next healthy one after `afterId`, circularly. */
  function nextHealthy(provider: string, afterId: string | undefined): StoredCredential | undefined {
    const mine = creds.filter((c) => c.provider === provider);
    const start = afterId ? mine.findIndex((c) => c.id === afterId) + 1 : 0;
    for (let i = 0; i < mine.length; i++) {
      const c = mine[(start + i) % mine.length];
      if (c.status === 'healthy') return c;
    }
    return undefined;
  }

  function unpin(id: string): void {
    for (const [k, v] of pins) if (v === id) pins.delete(k);
  }

  return {
    async load(): Promise<void> {
      if (!opts.file) return;
      const read = await readCredentialsFile(opts.file);
      if (!read.ok) {
        loadError = `credentials file: ${read.error}`;
        opts.log.error(
          { event: 'harness_credentials_unreadable', error: read.error },
          'harness credentials unreadable',
        );
        return;
      }
      creds = read.credentials;
      for (const c of creds) opts.onKey?.(c.api_key);
      loadError = null;
      if (read.loose)
        opts.log.warn(
          { event: 'harness_credentials_file_open', path: opts.file },
          'the harness credentials file is readable by group or others; chmod 600 it',
        );
    },

    /** Why the file could not be used, or null. */
    problem: (): string | null => loadError,

    list: (): CredentialMasked[] => creds.map(mask),

    /** Providers with at least one credential, and the base URL their credentials name (the first one that does). */
    providers(): Map<string, { base_url: string | null; healthy: boolean }> {
      const out = new Map<string, { base_url: string | null; healthy: boolean }>();
      for (const c of creds) {
        const seen = out.get(c.provider);
        out.set(c.provider, {
          base_url: seen?.base_url ?? c.base_url,
          healthy: (seen?.healthy ?? false) || c.status === 'healthy',
        });
      }
      return out;
    },

    async add(input: CredentialCreate): Promise<CredentialMasked> {
      if (loadError)
        throw new ActorError('CONFLICT', `${loadError}; fix or remove it before adding a credential`, {
          reason: 'credentials_file_unreadable',
        });
      const c: StoredCredential = {
        id: `cred_${crypto.randomUUID()}`,
        provider: input.provider,
        label: input.label ?? null,
        api_key: input.api_key,
        base_url: input.base_url ?? null,
        status: 'healthy',
        created_at: opts.now().toISOString(),
        dead_at: null,
      };
      creds = [...creds, c];
      opts.onKey?.(c.api_key);
      try {
        await persist();
      } catch (err) {
        creds = creds.filter((x) => x.id !== c.id);
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        throw new ActorError(
          'CONFLICT',
          `the credentials file ${opts.file} cannot be written (${code}); when it is provided read-only (a Kubernetes Secret), add credentials there`,
          { reason: 'credentials_file_not_writable' },
        );
      }
      opts.log.info(
        { event: 'harness_credential_added', credential_id: c.id, provider: c.provider },
        'harness credential added',
      );
      return mask(c);
    },

    /** A healthy credential of the provider: the one `pinKey` is pinned to, else the next in rotation (then pinned). */
    pickCredential(provider: string, pinKey?: string): PickedCredential | null {
      const pin = pinKey === undefined ? undefined : `${provider}\u0000${pinKey}`; // a run may use several providers
      const pinned = pin ? creds.find((c) => c.id === pins.get(pin) && c.status === 'healthy') : undefined;
      const c = pinned ?? nextHealthy(provider, cursor.get(provider));
      if (!c) return null;
      if (!pinned) {
        cursor.set(provider, c.id);
        if (pin) {
          pins.delete(pin);
          if (pins.size >= MAX_PINS) pins.delete(pins.keys().next().value!);
          pins.set(pin, c.id);
        }
      }
      return { id: c.id, provider: c.provider, api_key: c.api_key, base_url: c.base_url };
    },

    /** What a call did with a credential: 401/403 marks it dead, 429 rotates past it; both move its pins on. */
    async reportCredential(id: string, outcome: CredentialOutcome): Promise<void> {
      const c = creds.find((x) => x.id === id);
      if (!c || outcome === 'ok') return;
      unpin(id);
      cursor.set(c.provider, id);
      if (outcome === 'rate_limited' || c.status === 'dead') return;
      c.status = 'dead';
      c.dead_at = opts.now().toISOString();
      opts.log.warn(
        { event: 'harness_credential_dead', credential_id: id, provider: c.provider },
        'the provider refused a harness credential (401/403); it is marked dead',
      );
      await persist().catch((err) =>
        opts.log.warn(
          { event: 'harness_credentials_write_failed', code: (err as NodeJS.ErrnoException).code },
          'the dead mark is kept in memory only',
        ),
      );
    },
  };
}
export type CredentialPool = ReturnType<typeof createCredentialPool>;
