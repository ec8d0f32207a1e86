import moleculer from 'moleculer';
import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLoadBalancing, LoadBoard } from '../../../brokers/load-board.ts';
import { LeastInFlightStrategy } from '../../../brokers/least-in-flight.strategy.ts';

const load = (node_id: string, in_flight: number, limit: number | null = 1) => ({
  adapter_id: 'solver',
  node_id,
  in_flight,
  limit,
});

describe('LoadBoard.pick (the LeastInFlight choice)', () => {
  it('picks the node with the fewest calls in flight, counting published and own calls', () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 2, 4));
    board.report(load('b', 1, 4));
    expect(board.pick('solver', ['a', 'b'])).toBe('b');
    // Two calls this process sent to b and not yet published by b: b now has more than a.
    board.sent('solver', 'b', 1);
    board.sent('solver', 'b', 1);
    board.sent('solver', 'b', 1);
    expect(board.inFlight('solver', 'b')).toBe(3);
    expect(board.pick('solver', ['a', 'b'])).toBe('a');
  });

  it('breaks a tie at random among the equally loaded nodes (the injected random decides)', () => {
    const nodes = ['a', 'b', 'c'];
    const low = new LoadBoard(() => 0);
    const high = new LoadBoard(() => 0.999);
    for (const b of [low, high]) {
      b.report(load('a', 1));
      b.report(load('b', 0));
      b.report(load('c', 0));
    }
    expect(low.pick('solver', nodes)).toBe('b');
    expect(high.pick('solver', nodes)).toBe('c');
  });

  it('treats a node it has heard nothing of as idle with no limit', () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 1));
    expect(board.free('solver', 'new')).toBe(Infinity);
    expect(board.pick('solver', ['a', 'new'])).toBe('new');
  });
});

describe('LoadBoard.report', () => {
  it("keeps a node's newest report when an older one arrives after it (an event overtaking a refusal)", () => {
    const board = new LoadBoard(() => 0);
    board.report({ ...load('a', 0), epoch: 1, seq: 8 });
    board.report({ ...load('a', 1), epoch: 1, seq: 7 });
    expect(board.inFlight('solver', 'a')).toBe(0);
    board.report({ ...load('a', 1), epoch: 1, seq: 9 });
    expect(board.inFlight('solver', 'a')).toBe(1);
    // A restarted actor (a later epoch) starts its count again.
    board.report({ ...load('a', 0), epoch: 2, seq: 0 });
    expect(board.inFlight('solver', 'a')).toBe(0);
  });
});

describe('LoadBoard.waitForSlot', () => {
  it('answers at once with a node that has a free slot', async () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 1));
    board.report(load('b', 0));
    await expect(board.waitForSlot('solver', { pollMs: 60_000 })).resolves.toBe('b');
  });

  it('hands freed slots to waiting calls first come first served, one call per slot', async () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 1));
    board.sent('solver', 'a', 1); // a call of this process runs on a
    board.report(load('b', 1));
    const order: string[] = [];
    const first = board.waitForSlot('solver', { pollMs: 60_000 }).then((n) => order.push(`first:${n}`));
    const second = board.waitForSlot('solver', { pollMs: 60_000 }).then((n) => order.push(`second:${n}`));
    expect(board.waiting('solver')).toBe(2);
    board.report(load('b', 0));
    await first;
    board.sent('solver', 'b', 1); // the first waiter's call is sent to b
    expect(order).toEqual(['first:b']);
    expect(board.waiting('solver')).toBe(1);
    // a publishes 0 before its answer reaches this process: the own count still holds the slot until the answer.
    board.report(load('a', 0));
    expect(board.waiting('solver')).toBe(1);
    board.sent('solver', 'a', -1);
    await second;
    expect(order).toEqual(['first:b', 'second:a']);
  });

  it('gives up waiting when aborted and leaves the queue', async () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 1));
    const ac = new AbortController();
    const waiting = board.waitForSlot('solver', { pollMs: 60_000, signal: ac.signal });
    ac.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(board.waiting('solver')).toBe(0);
  });

  it('forgets what a node published when it leaves the bus', async () => {
    const board = new LoadBoard(() => 0);
    board.report(load('a', 0));
    board.forget('a');
    const ac = new AbortController();
    const waiting = board.waitForSlot('solver', { pollMs: 60_000, signal: ac.signal });
    expect(board.waiting('solver')).toBe(1);
    ac.abort();
    await waiting;
  });
});

describe('LeastInFlightStrategy', () => {
  it("chooses the adapter invoke endpoint of the node with the fewest calls in flight on the broker's board", () => {
    const broker = new moleculer.ServiceBroker({ logger: false });
    const balancing = createLoadBalancing(new client.Registry(), () => 0);
    balancing.attach(broker);
    balancing.board.report(load('n1', 1, 2));
    balancing.board.report(load('n2', 0, 2));
    const strategy = new LeastInFlightStrategy(broker.registry, broker);
    const ep = (id: string) => ({ id, action: { name: 'adapters.solver.invoke' } });
    const list = [ep('n1'), ep('n2')] as unknown as Parameters<LeastInFlightStrategy['select']>[0];
    expect(strategy.select(list).id).toBe('n2');
    balancing.board.report(load('n2', 2, 2));
    expect(strategy.select(list).id).toBe('n1');
  });
});
