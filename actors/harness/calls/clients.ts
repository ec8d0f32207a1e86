import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FIRST_PARTY_BASE_URL, isFirstParty } from './family-fit.ts';
import { HarnessCallError } from './errors.ts';
import { DEFAULT_TIMEOUT_MS, type ProviderConfig } from './types.ts';

/**
 * SDK clients, one per (family, base URL, key, timeout), reused across calls so each call keeps its pooled
 * connections. Both SDKs are built with `maxRetries: 0` (the harness decides on retries, rotation and fallback),
 * their logging off (the harness logs classified failures) and every option explicit, so neither reads
 * OPENAI_* / ANTHROPIC_* variables of the process behind the configuration's back.
 */
const MAX_CLIENTS = 64;
const openaiClients = new Map<string, OpenAI>();
const anthropicClients = new Map<string, Anthropic>();

function remember<C>(cache: Map<string, C>, key: string, make: () => C): C {
  const hit = cache.get(key);
  if (hit) return hit;
  const client = make();
  if (cache.size >= MAX_CLIENTS) cache.delete(cache.keys().next().value as string);
  cache.set(key, client);
  return client;
}

const fetchIds = new WeakMap<object, number>();
let fetchSeq = 0;
/** A client is reused only with the same fetch (an egress policy of its own). */
const fetchKey = (f: ProviderConfig['fetch']) => {
  if (!f) return 'sdk';
  if (!fetchIds.has(f)) fetchIds.set(f, ++fetchSeq);
  return String(fetchIds.get(f));
};

function noKey(family: string): HarnessCallError {
  return HarnessCallError.of('environment', `no API key is configured for this ${family} provider`, {
    credential_dead: true,
  });
}

/** The OpenAI SDK client for a provider. A keyless endpoint (a local server) gets no Authorization header at all. */
export function openaiClient(p: ProviderConfig): OpenAI {
  const baseURL = p.baseURL ?? FIRST_PARTY_BASE_URL.openai_compatible;
  const timeout = p.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!p.apiKey && isFirstParty('openai_compatible', p.baseURL)) throw noKey('OpenAI');
  const key = `${baseURL}\n${timeout}\n${fetchKey(p.fetch)}\n${p.apiKey ?? ''}`;
  return remember(
    openaiClients,
    key,
    () =>
      new OpenAI({
        baseURL,
        timeout,
        maxRetries: 0,
        logLevel: 'off',
        organization: null,
        project: null,
        ...(p.fetch ? { fetch: p.fetch } : {}),
        // The SDK insists on a key at construction; without one the header is dropped, so nothing is sent.
        ...(p.apiKey ? { apiKey: p.apiKey } : { apiKey: 'keyless', defaultHeaders: { Authorization: null } }),
      }),
  );
}

/** The Anthropic SDK client for a provider; the Anthropic family always needs a key. */
export function anthropicClient(p: ProviderConfig): Anthropic {
  const baseURL = p.baseURL ?? FIRST_PARTY_BASE_URL.anthropic;
  const timeout = p.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!p.apiKey) throw noKey('Anthropic');
  const apiKey = p.apiKey;
  const key = `${baseURL}\n${timeout}\n${fetchKey(p.fetch)}\n${apiKey}`;
  return remember(
    anthropicClients,
    key,
    () =>
      new Anthropic({
        apiKey,
        authToken: null,
        baseURL,
        timeout,
        maxRetries: 0,
        logLevel: 'off',
        ...(p.fetch ? { fetch: p.fetch } : {}),
      }),
  );
}
