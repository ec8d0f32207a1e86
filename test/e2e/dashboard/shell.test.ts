import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchChromium,
  openPage,
  screenshot,
  seriousA11yViolations,
  startDashboardNode,
  type DashboardNode,
} from '../../support/browser.ts';

/**
 * The dashboard's frame in Chromium against a real node: the landing route, the not-found screen, the gateway chip
 * (Connected, then Unavailable when the gateway stops), Settings (the address in local storage, the cache cleared),
 * the theme switch, and every route of the spec without serious or critical accessibility violations.
 */
let node: DashboardNode;
let browser: Browser;
beforeAll(async () => {
  [node, browser] = await Promise.all([startDashboardNode(), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const ROUTES = [
  '/projects',
  '/projects/00000000-0000-4000-8000-000000000000',
  '/sessions',
  '/sessions/00000000-0000-4000-8000-000000000000',
  '/runs',
  '/runs/new',
  '/runs/00000000-0000-4000-8000-000000000000',
  '/approvals',
  '/bom',
  '/twin',
  '/sim',
  '/files',
  '/knowledge',
  '/knowledge/sources/no-such-source',
  '/compliance',
  '/settings',
];

describe('the dashboard frame', () => {
  it('lands on /projects, shows not-found for an unknown path and reports the gateway Connected', async () => {
    const { page, context } = await openPage(browser, node.url);
    const authConfig = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/auth/config');
    await page.goto('/');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/projects');
    await page.getByTestId('gateway-chip').getByText('Gateway: Connected').waitFor();
    // Without an issuer the dashboard has no sign-in (issue 29 point 4, decision 0120): nothing is drawn for it.
    expect(await (await authConfig).json()).toEqual({ sign_in: false });
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.getByTestId('signed-in').count()).toBe(0);
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'not-found');
    await context.close();
  });

  it('switches theme and keeps the choice across a reload', async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto('/settings');
    await page.getByLabel('Theme').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await page.getByTestId('gateway-chip').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'settings-dark');
    await context.close();
  });

  it('keeps the gateway address in local storage and clears the query cache when it changes', async () => {
    const { page, context, sent } = await openPage(browser, node.url);
    const name = `Cached ${Date.now()}`;
    await fetch(`${node.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    // The list is read and cached, then Settings is opened within the app (no reload: the cache lives on).
    await page.goto('/projects');
    await page.getByText(name).first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByTestId('gateway-chip').getByText('Gateway: Connected').waitFor();
    // An address where nothing listens: the chip goes Unavailable, the address survives a reload.
    await page.getByLabel('Gateway address').fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('service.gateway'))).toBe('http://127.0.0.1:9');
    await page.getByTestId('gateway-chip').getByText('Gateway: Unavailable').waitFor();
    expect(sent.some((r) => r.url.startsWith('http://127.0.0.1:9/health'))).toBe(true);
    // Back on Projects within the app: the cached list is gone, the new address answers nothing.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('alert').first().waitFor({ timeout: 30_000 });
    expect(await page.getByText(name).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.reload();
    expect(await page.getByLabel('Gateway address').inputValue()).toBe('http://127.0.0.1:9');
    // Back to this origin: Connected again.
    await page.getByLabel('Gateway address').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('gateway-chip').getByText('Gateway: Connected').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('service.gateway'))).toBeNull();
    await context.close();
  });

  it('has no serious or critical accessibility violations on any route, light or dark', async () => {
    const { page, context } = await openPage(browser, node.url);
    const found: Record<string, unknown> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const route of ROUTES) {
        await page.goto(route);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForFunction(
          () =>
            !Array.from(document.querySelectorAll('[role=status]')).some((e) => e.textContent?.startsWith('Loading')),
        );
        const v = await seriousA11yViolations(page);
        if (v.length) found[`${scheme} ${route}`] = v;
        if (scheme === 'light') await screenshot(page, `route${route.replaceAll('/', '_')}`);
      }
    }
    expect(found).toEqual({});
    await context.close();
  }, 300_000);

  it('turns the chip Unavailable when the gateway stops', async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto('/projects');
    await page.getByTestId('gateway-chip').getByText('Gateway: Connected').waitFor();
    await node.service.kill('SIGTERM');
    await page.getByTestId('gateway-chip').getByText('Gateway: Unavailable').waitFor({ timeout: 30_000 });
    await screenshot(page, 'gateway-unavailable');
    await context.close();
  }, 60_000);
});
