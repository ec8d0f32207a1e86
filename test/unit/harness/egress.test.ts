import { describe, expect, it } from 'vitest';
import { createEgressPolicy, isPrivateAddress, parseAllowList } from '../../../actors/harness/calls/egress.ts';

// Where a provider request may go (issue 27, finding 7): the address classes and the allow-list's forms.

describe('non-public addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    'not-an-address',
  ])('%s is not public', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['8.8.8.8', '172.32.0.1', '104.18.6.192', '2606:4700::6810:6c0', '::ffff:8.8.8.8'])('%s is public', (ip) =>
    expect(isPrivateAddress(ip)).toBe(false),
  );
});

describe('the allow-list', () => {
  it('reads host and host:port entries, IPv6 in brackets', () => {
    expect(parseAllowList(' 127.0.0.1:11434, localhost ,[::1]:8080,, Ollama.Local ')).toEqual([
      { host: '127.0.0.1', port: '11434' },
      { host: 'localhost', port: null },
      { host: '::1', port: '8080' },
      { host: 'ollama.local', port: null },
    ]);
  });

  it('allows a listed host on any port, a listed host:port on that port only', async () => {
    const p = createEgressPolicy('127.0.0.1:11434,[::1]');
    expect(await p.check('http://127.0.0.1:11434/v1')).toBeNull();
    expect(await p.check('http://127.0.0.1:11435/v1')).toMatch(/SERVICE_HARNESS_PRIVATE_BASE_URLS/);
    expect(await p.check('http://[::1]:9/v1')).toBeNull();
    expect(await p.check('http://user:pw@8.8.8.8/v1')).toMatch(/credentials/);
    expect(await p.check('file:///etc/passwd')).toMatch(/scheme/);
    await p.close();
  });
});
