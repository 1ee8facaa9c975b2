/**
 * The web UI's browser tests' kit: Debian's Chromium driven by playwright-core (never a
 * downloaded browser), sign-in through the real form, axe-core checks and screenshots.
 *
 * Nothing here uses jest's globals, so the UI bench (tools/bench/ui.bench.ts) shares it.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';

const ROOT = path.resolve(__dirname, '../../..');
const AXE = path.join(ROOT, 'node_modules/axe-core/axe.min.js');
/** CI's artifact folder (.ci/out is gitignored). */
export const SCREENSHOTS = path.join(ROOT, '.ci/out/ui-screenshots');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The part of a running control plane the kit needs (the e2e harness's RunningApp has it). */
export interface AppUnderTest {
  url: string;
  credentials?: { username: string; password: string };
}

export interface BrowserKit {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** What the page threw or logged as an error, to print when a test fails. */
  errors: string[];
  /** Closes the browser and kills every process it started (the crashpad handler included). */
  close(): Promise<void>;
}

/** Every process whose environment holds `marker` (what this kit's Chromium started). */
function processesMarked(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`).includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A headless Chromium with one page. Its processes carry a marker in their environment, so
 * close() finds and kills all of them, even the crashpad handler that leaves the browser's
 * process group and is reparented to init.
 */
export async function openBrowser(options: { timeoutMs?: number } = {}): Promise<BrowserKit> {
  const marker = `SB_BROWSER_KIT=${randomUUID()}`;
  const [name, value] = marker.split('=');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env[name] = value;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    if (browser)
      await withTimeout(
        browser.close().catch(() => undefined),
        5000,
      );
    for (const pid of processesMarked(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      env,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(options.timeoutMs ?? 10_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // The app's CSP refusing the kit's own axe tag is not the app's error.
      if (m.type() !== 'error' || (injecting.has(page) && /Content Security Policy/.test(m.text())))
        return;
      // Before signing in the app asks /api/auth/me and hears 401: that is how it knows.
      if (/status of 401/.test(m.text()) && /\/api\/auth\/me$/.test(m.location().url)) return;
      errors.push(`console.error: ${m.text()}`);
    });
    return { browser, context, page, errors, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The test password the harness set (startApp's `api.credentials`). */
export function credentialsOf(api: AppUnderTest): { username: string; password: string } {
  if (!api.credentials) {
    throw new Error(
      'the app under test exposes no credentials (startApp should set a test password and expose api.credentials)',
    );
  }
  return api.credentials;
}

/** The sign-in page's form (docs/web-ui.md: heading "Sign in", "Username", "Password"). */
export async function fillSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The sidebar, which the app shows once someone is signed in. */
export const sidebar = (page: Page): Locator => page.getByRole('navigation', { name: 'Sessions' });

/** Opens the app and signs in through the real form; resolves once the app shows. */
export async function signIn(page: Page, api: AppUnderTest): Promise<void> {
  const { username, password } = credentialsOf(api);
  await page.goto(api.url + '/');
  await fillSignIn(page, username, password);
  await sidebar(page).waitFor();
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Matches an accessible name that starts with `text` (a treeitem adds its status). */
export const startsWith = (text: string): RegExp => new RegExp(`^\\s*${escape(text)}`);

/** The sidebar's treeitem of a session, by its title. */
export const treeItem = (page: Page, title: string): Locator =>
  sidebar(page).getByRole('treeitem', { name: startsWith(title) });

/** Opens a session's view from the sidebar; resolves once its heading shows. */
export async function openSession(page: Page, title: string): Promise<void> {
  // The item's own title, not a child's (a child's treeitem sits inside its creator's).
  await treeItem(page, title).getByText(title, { exact: true }).first().click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

export const transcriptLog = (page: Page): Locator => page.getByRole('log', { name: 'Transcript' });

/** Pages into which checkA11y is injecting axe right now. */
const injecting = new WeakSet<Page>();

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/**
 * Runs axe-core on the page as it is now and fails on serious or critical violations, naming
 * each rule, its help and the nodes that broke it. Returns the lesser ones' ids.
 */
export async function checkA11y(page: Page, name: string): Promise<string[]> {
  const loaded = () => page.evaluate(() => typeof (globalThis as any).axe?.run === 'function');
  if (!(await loaded())) {
    injecting.add(page);
    await page.addScriptTag({ path: AXE }).catch(() => undefined);
    // The console event of a refused tag arrives before this round trip's answer.
    await page.evaluate(() => 0);
    injecting.delete(page);
    // A Content-Security-Policy without inline scripts keeps the tag from running: evaluate it.
    if (!(await loaded())) await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  }
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as AxeViolation[]).map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length > 0) {
    const lines = bad.map((v) =>
      [
        `- ${v.id} (${v.impact}): ${v.help} <${v.helpUrl}>`,
        ...v.nodes.map(
          (n) =>
            `    ${n.target.map(String).join(' ')}${n.failureSummary ? `: ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
        ),
      ].join('\n'),
    );
    const message = `axe found ${bad.length} serious or critical accessibility violation(s) on "${name}":\n${lines.join('\n')}`;
    // UI_A11Y=warn prints them instead, to see what else a run finds while they are fixed.
    if (process.env.UI_A11Y === 'warn') console.warn(message);
    else throw new Error(message);
  }
  return violations.map((v) => `${v.id} (${v.impact})`);
}

/** A full-page PNG under .ci/out/ui-screenshots/<name>.png; returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The narrow phone width every view is also checked at (issue 15: 390 px). */
export const PHONE_WIDTH = 390;

/**
 * Both checks every page gets, the screenshot first so a failing axe check still leaves it: in
 * the light scheme at the page's own size, in the dark scheme (prefers-color-scheme), and at a
 * phone's width; then the page is put back as it was.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await checkA11y(page, name);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await shot(page, `${name}-dark`);
    await checkA11y(page, `${name} (dark)`);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  const size = page.viewportSize();
  if (!size || size.width <= PHONE_WIDTH) return;
  await page.setViewportSize({ width: PHONE_WIDTH, height: size.height });
  try {
    await shot(page, `${name}-${PHONE_WIDTH}px`);
    await checkA11y(page, `${name} (${PHONE_WIDTH} px wide)`);
  } finally {
    await page.setViewportSize(size);
  }
}

/** Marks the document; `stillSamePage` tells whether no reload or navigation replaced it. */
export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((globalThis as any).__sbNoReload = true));
}
export async function stillSamePage(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as any).__sbNoReload === true);
}
