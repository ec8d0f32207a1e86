import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createFallbackRecorder } from '../../actors/harness/config/fallback.ts';
import { createMetrics } from '../../brokers/metrics.ts';

// SPEC rule 10: a role served by other than its primary logs harness_provider_fallback (warn; info for
// capability_unsupported) and counts service_harness_provider_fallback_total{primary, fallback, role, reason}.

describe('the fallback recorder', () => {
  const lines: { level: number; event: string; reason: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const metrics = createMetrics({ collectDefaults: false });
  const rec = createFallbackRecorder({
    log: pino({ level: 'info' }, sink),
    metrics,
    now: () => new Date('2026-11-25T12:00:00Z'),
    maxLabelValues: 100,
  });
  const primary = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
  const fallback = { provider: 'openai', model: 'gpt-4o' };

  it('counts each fallback with its labels and keeps the primary provider last and count', async () => {
    rec.record({ role: 'chat', primary, fallback, reason: 'call_failed', detail: 'transient: 503' });
    rec.record({ role: 'chat', primary, fallback, reason: 'call_failed' });
    rec.record({ role: 'phase_brain:optics', primary, fallback, reason: 'capability_unsupported' });
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'service_harness_provider_fallback_total{primary="anthropic:claude-sonnet-4-5",fallback="openai:gpt-4o",role="chat",reason="call_failed"} 2',
    );
    expect(text).toContain('role="phase_brain:optics",reason="capability_unsupported"} 1');
    expect(rec.of('anthropic')).toMatchObject({
      fallback_count: 3,
      last_fallback: { role: 'phase_brain:optics', reason: 'capability_unsupported', at: '2026-11-25T12:00:00.000Z' },
    });
    expect(rec.of('openai')).toEqual({ last_fallback: null, fallback_count: 0 });
  });

  it('logs a warning, and info for capability_unsupported', () => {
    const logged = lines.filter((l) => l.event === 'harness_provider_fallback');
    expect(logged.map((l) => [l.reason, l.level])).toEqual([
      ['call_failed', 40],
      ['call_failed', 40],
      ['capability_unsupported', 30],
    ]);
  });
});
