import fs from 'node:fs';
import path from 'node:path';
import type { ServiceSchema } from 'moleculer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { callerPort } from '../../../actors/adapters/kit/caller-port.ts';
import { CallerChannel } from '../../../contracts/actions/gateway.actions.ts';
import { startActors } from '../../support/actors.ts';

/** The caller port (ISSUE 13 point 4): upward messages of a call go through it, addressed by the call id. */
const seen: { kind: string; params: unknown }[] = [];
let h: BrokerHandle;
beforeAll(async () => {
  // A stand-in for the actor holding the caller's stream: it serves the channel and records what arrives.
  const channel = (): ServiceSchema => ({
    name: 'gateway',
    actions: {
      toolProgress: action(
        CallerChannel.progress,
        (p) => (seen.push({ kind: 'progress', params: p }), { delivered: true }),
      ),
      toolNotify: action(
        CallerChannel.notify,
        (p) => (seen.push({ kind: 'notify', params: p }), { delivered: p.call_id === 'c1' }),
      ),
      toolRequest: action(CallerChannel.request, (p) => {
        seen.push({ kind: 'request', params: p });
        if (p.params.fail) throw new Error('the client answered with an error');
        return { delivered: true as const, result: { action: 'accept' } };
      }),
      toolWithdraw: action(
        CallerChannel.withdraw,
        (p) => (seen.push({ kind: 'withdraw', params: p }), { delivered: true }),
      ),
    },
  });
  h = await startActors([channel]);
});
afterAll(async () => {
  await h.broker.stop();
});

describe('callerPort', () => {
  it('sends progress, notifications, requests and withdrawals to the reply address, named by the call id', async () => {
    seen.length = 0;
    const port = callerPort(h.broker, { callId: 'c1', replyTo: h.broker.nodeID });
    expect(port.reachable).toBe(true);
    expect(await port.progress(1.5, 'past the end', { total: 30 })).toBe(true);
    expect(await port.notify('notifications/message', { level: 'info', data: 'x' })).toBe(true);
    expect(
      await port.request('elicitation/create', { message: 'ok?' }, { timeoutMs: 5000, requestId: 'r1', hold: true }),
    ).toEqual({
      delivered: true,
      result: { action: 'accept' },
    });
    expect(await port.withdraw('r1', 'decided elsewhere')).toBe(true);
    expect(seen).toEqual([
      { kind: 'progress', params: { call_id: 'c1', progress: 1, message: 'past the end', total: 30 } },
      {
        kind: 'notify',
        params: { call_id: 'c1', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      },
      {
        kind: 'request',
        params: {
          call_id: 'c1',
          method: 'elicitation/create',
          params: { message: 'ok?' },
          request_id: 'r1',
          hold: true,
        },
      },
      { kind: 'withdraw', params: { call_id: 'c1', request_id: 'r1', reason: 'decided elsewhere' } },
    ]);
  });

  it('answers undelivered without sending when the call has no stream, and never throws for one-way messages', async () => {
    seen.length = 0;
    const port = callerPort(h.broker, { callId: 'c2' });
    expect(port.reachable).toBe(false);
    expect(await port.progress(0.5, 'half')).toBe(false);
    expect(await port.notify('notifications/message', {})).toBe(false);
    expect(await port.request('roots/list', {}, { timeoutMs: 1000 })).toEqual({
      delivered: false,
      reason: 'the call has no client stream',
    });
    expect(await port.withdraw('r2', 'gone')).toBe(false);
    expect(seen).toEqual([]);
    // A reply address nobody serves: one-way messages resolve false rather than throw.
    const lost = callerPort(h.broker, { callId: 'c3', replyTo: 'no-such-node' });
    expect(await lost.progress(0.1, 'x')).toBe(false);
    expect(await lost.notify('notifications/message', {})).toBe(false);
  });

  it('passes a client error of a request up to the caller', async () => {
    const port = callerPort(h.broker, { callId: 'c1', replyTo: h.broker.nodeID });
    await expect(port.request('elicitation/create', { fail: true }, { timeoutMs: 5000 })).rejects.toThrow(
      /answered with an error/,
    );
  });
});

describe('upward calls behind the port', () => {
  /** Every .ts file under a folder. */
  const filesUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
      );

  const CHANNEL_NAMES = new RegExp('GatewayActions|CallerChannel|gateway\\.tool(Progress|Notify|Request|Withdraw)');

  it('no actor but the caller port names the caller channel (the gateway call-back actions)', () => {
    const offenders = filesUnder(path.resolve('actors'))
      .filter((f) => !f.endsWith(path.join('kit', 'caller-port.ts')))
      .filter((f) => CHANNEL_NAMES.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(process.cwd(), f));
    expect(offenders).toEqual([]);
  });
});
