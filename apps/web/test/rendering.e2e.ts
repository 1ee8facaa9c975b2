import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { turnFinished } from '../../control-plane/test/agent/agent-kit';
import { checkPage, transcriptLog } from './browser-kit';
import { scriptedSession, sendScript, sb, useControlPlane, workspaceOf } from './session-kit';

/** Every probe sets this flag if it ever runs. */
const FLAG = '__sbXss';
const TITLE = `Probe <img src=x onerror="window.${FLAG}=1"><script>window.${FLAG}=2</script>`;
const VIDEO = '/workspace/clips/demo.mp4';
const REPLY = [
  '## Result',
  '',
  'Run it:',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  '',
  '| Step | Status |',
  '| ---- | ------ |',
  '| build | passed |',
  '',
  '- [x] tests written',
  '- [ ] docs',
  '',
  'See [the docs](https://example.com/docs) or [this](javascript:window.' + FLAG + '=3).',
  '',
  `<img src=x onerror="window.${FLAG}=4">`,
  '',
  `<script>window.${FLAG}=5</script>`,
  '',
  `The recording: ${VIDEO}`,
].join('\n');

const flagOf = (page: Page) => page.evaluate((flag) => (globalThis as any)[flag], FLAG);

/**
 * An agent's reply, tool calls and a screenshot as the real pipeline gives them (the scripted
 * harness in a real box, its MCP servers real), rendered: markdown with highlighted code,
 * tool rows, an inline image that zooms, a video player; and no script in any of it runs.
 */
describe('agent output rendered in the transcript', () => {
  const plane = useControlPlane({ boxes: true });
  let id: string;

  beforeAll(async () => {
    id = await scriptedSession(plane.api, TITLE);
    // A real one-second MP4 where the reply says it is.
    const file = path.join(workspaceOf(plane.api, id), 'clips/demo.mp4');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const lavfi = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1'];
    execFileSync('ffmpeg', ['-loglevel', 'error', ...lavfi, '-pix_fmt', 'yuv420p', file]);
  }, 60_000);

  it('shows markdown, merged tool rows, a zoomable screenshot and a video; runs no probe', async () => {
    const page = await plane.openView(TITLE);
    await sendScript(
      plane.api,
      id,
      { say: REPLY },
      sb('whoami'),
      { call: 'desktop.screenshot' },
      { say: 'Done.' },
    );
    await turnFinished(plane.api, id, 1, 60_000);
    const log = transcriptLog(page);
    await log.getByText('Done.', { exact: true }).waitFor({ timeout: 30_000 });

    // Markdown: a heading, a highlighted code fence, a GFM table and task list.
    await log.getByRole('heading', { name: 'Result' }).waitFor();
    const code = log.locator('pre code.hljs');
    expect(await code.textContent()).toBe('const answer: number = 42; // the answer\n');
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('const');
    expect(await code.locator('.hljs-comment').textContent()).toBe('// the answer');
    const table = log.getByRole('table');
    expect(await table.getByRole('cell', { name: 'passed' }).count()).toBe(1);
    const done = log.getByRole('checkbox');
    expect(await done.count()).toBe(2);
    expect(await log.getByRole('checkbox', { name: 'Done', exact: true }).isChecked()).toBe(true);
    expect(await log.getByRole('checkbox', { name: 'Not done' }).isChecked()).toBe(false);

    // Links open safely; a javascript: link is no link; raw HTML is shown as text.
    const docs = log.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await log.locator('a[href^="javascript:"]').count()).toBe(0);
    const reply = log.locator('.bubble.message').filter({ hasText: 'Run it:' });
    await reply.getByText(`<script>window.${FLAG}=5</script>`, { exact: true }).waitFor();
    await reply.getByText(`<img src=x onerror="window.${FLAG}=4">`, { exact: true }).waitFor();
    expect(await log.locator('script').count()).toBe(0);

    // A tool call and its result: one row, a readable name, its status, input/output folded.
    const whoami = log.locator('.tool').filter({ hasText: 'sessionboxer · whoami' });
    expect(await whoami.count()).toBe(1);
    expect(await whoami.locator('.tool-status').textContent()).toBe('ok');
    const output = whoami.locator('details').filter({ hasText: 'Output' });
    expect(await output.getAttribute('open')).toBeNull();
    await output.locator('summary').click();
    // The result names the session by its title: shown as text, inert.
    await output.getByText(/Probe <img src=x onerror=/).waitFor();
    expect(await log.getByText('mcp__sessionboxer__whoami').count()).toBe(0);

    // The screenshot inline, loaded; a click zooms it in a dialog that Escape closes.
    const shotRow = log.locator('.tool').filter({ hasText: 'desktop · screenshot' });
    expect(await shotRow.locator('.tool-status').textContent()).toBe('ok');
    const image = shotRow.getByRole('img', { name: 'Image 1 from desktop · screenshot' });
    await image.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await image.elementHandle(),
    );
    await shotRow.getByRole('button', { name: 'Zoom: Image 1 from desktop · screenshot' }).click();
    const zoom = page.getByRole('dialog', { name: 'Image 1 from desktop · screenshot' });
    await zoom.waitFor();
    await checkPage(page, 'rendering-zoom');
    await page.keyboard.press('Escape');
    await zoom.waitFor({ state: 'detached' });

    // The video the reply names plays from the workspace (its metadata loads).
    const video = log.locator(`video[aria-label="Video ${VIDEO}"]`);
    await page.waitForFunction(
      (v) => v instanceof HTMLVideoElement && v.readyState >= 1 && v.duration > 0,
      await video.elementHandle(),
    );

    expect(await flagOf(page)).toBeUndefined();
    await log.getByRole('heading', { name: 'Result' }).scrollIntoViewIfNeeded();
    await checkPage(page, 'rendering');
    expect(await flagOf(page)).toBeUndefined();
  }, 120_000);
});
