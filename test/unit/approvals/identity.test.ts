import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../brokers/config.ts';
import { loadApprovalAuth, type AuthResult } from '../../../gateway/approvals/auth.ts';
import { resolveDecider } from '../../../gateway/approvals/identity.ts';

const off: AuthResult = { on: false };
const alice: AuthResult = { on: true, principal: 'alice' };
const code = (r: ReturnType<typeof resolveDecider>) => ('refusal' in r ? r.refusal.code : 'ok');

describe('who decides (SPEC Gateway rules 2-6)', () => {
  it('with authentication off: local:dashboard unverified, or the on-behalf-of user for an agent; local:elicitation inline', () => {
    expect(resolveDecider({}, off, 'unified')).toEqual({
      decider: {
        approver: 'local:dashboard',
        approver_verified: false,
        surface: 'unknown',
        on_behalf_of: null,
        agent: null,
        channel: 'api',
        principal: null,
      },
    });
    expect(resolveDecider({ surface: 'cli' }, off, 'unified')).toMatchObject({
      decider: { surface: 'cli', channel: 'cli', principal: null },
    });
    expect(resolveDecider({ surface: 'agent', on_behalf_of: 'ann', agent: 'bot' }, off, 'unified')).toEqual({
      decider: {
        approver: 'ann',
        approver_verified: false,
        surface: 'agent',
        on_behalf_of: 'ann',
        agent: 'bot',
        channel: 'api',
        principal: null,
      },
    });
    expect(resolveDecider({ surface: 'dashboard' }, off, 'inline')).toEqual({
      decider: {
        approver: 'local:elicitation',
        approver_verified: false,
        surface: 'chat',
        on_behalf_of: null,
        agent: null,
        channel: 'chat',
        principal: null,
      },
    });
    // An older per-kind route records surface unknown (SPEC) but keeps where it came from (decision 0061).
    expect(resolveDecider({ surface: 'dashboard' }, off, 'legacy')).toMatchObject({
      decider: { surface: 'unknown', channel: 'dashboard' },
    });
  });

  it('with authentication on: the principal, verified; on-behalf-of must be the principal', () => {
    expect(resolveDecider({ surface: 'dashboard' }, alice, 'unified')).toMatchObject({
      decider: { approver: 'alice', approver_verified: true, channel: 'dashboard', principal: 'alice' },
    });
    expect(code(resolveDecider({ surface: 'agent', on_behalf_of: 'bob' }, alice, 'unified'))).toBe('FORBIDDEN');
    expect(resolveDecider({ surface: 'agent', on_behalf_of: 'alice' }, alice, 'unified')).toMatchObject({
      decider: { approver: 'alice', approver_verified: true, on_behalf_of: 'alice' },
    });
    expect(code(resolveDecider({}, { on: true, error: 'missing_key' }, 'unified'))).toBe('AUTH_REQUIRED');
    expect(code(resolveDecider({}, { on: true, error: 'missing_key' }, 'inline'))).toBe('AUTH_REQUIRED');
    expect(code(resolveDecider({}, { on: true, error: 'mismatch' }, 'inline'))).toBe('AUTH_REQUIRED');
    expect(resolveDecider({}, alice, 'inline')).toMatchObject({
      decider: { approver: 'alice', approver_verified: true, surface: 'chat' },
    });
  });

  it('refuses bad headers with 422', () => {
    expect(code(resolveDecider({ surface: 'chat' }, off, 'unified'))).toBe('VALIDATION_FAILED');
    expect(code(resolveDecider({ surface: 'agent' }, off, 'unified'))).toBe('VALIDATION_FAILED');
    expect(code(resolveDecider({ surface: 'cli', on_behalf_of: 'ann' }, off, 'legacy'))).toBe('VALIDATION_FAILED');
    expect(code(resolveDecider({ agent: 'bot' }, off, 'unified'))).toBe('VALIDATION_FAILED');
  });
});

describe('the token file', () => {
  const write = (content: string, mode: number) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tokens-')), 'tokens.json');
    fs.writeFileSync(file, content, { mode });
    fs.chmodSync(file, mode);
    return file;
  };

  it('maps bearer tokens to principals and tells a missing token from a wrong one', async () => {
    const auth = loadApprovalAuth(write(JSON.stringify({ 'a-long-enough-token-1': 'alice' }), 0o600));
    expect(await auth.resolve('Bearer a-long-enough-token-1')).toEqual({ on: true, principal: 'alice' });
    expect(await auth.resolve('Bearer a-long-enough-token-2')).toEqual({ on: true, error: 'mismatch' });
    expect(await auth.resolve(undefined)).toEqual({ on: true, error: 'missing_key' });
    expect(await loadApprovalAuth(undefined).resolve('Bearer x')).toEqual({ on: false });
  });

  it('refuses a file others may read, a bad file and short tokens', () => {
    expect(() => loadApprovalAuth(write(JSON.stringify({ 'a-long-enough-token-1': 'alice' }), 0o644))).toThrow(
      ConfigError,
    );
    expect(() => loadApprovalAuth(write(JSON.stringify({ 'a-long-enough-token-1': 'alice' }), 0o644))).toThrow(
      /chmod 600/,
    );
    expect(() => loadApprovalAuth(write('not json', 0o600))).toThrow(/not JSON/);
    expect(() => loadApprovalAuth(write(JSON.stringify({ short: 'alice' }), 0o600))).toThrow(/16 characters/);
    expect(() => loadApprovalAuth('/nonexistent/tokens.json')).toThrow(/cannot read/);
  });
});
