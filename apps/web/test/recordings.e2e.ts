import { conversation, script, turnFinished } from '../../control-plane/test/agent/agent-kit';
import { waitFor } from '../../control-plane/test/box-kit';
import { checkPage } from './browser-kit';
import { useScriptedSession } from './session-kit';

const CAPTIONS = ['Opening the editor', 'Typing the fix', 'Checking the result'];

/**
 * A recording made by the agent (the scripted harness) of its box's real desktop (Xvfb, ffmpeg)
 * plays in the Recordings pane, and its captions, the "Steps", seek the video.
 */
describe('the recording player', () => {
  const session = useScriptedSession('Recorder', {
    // No narration: the video is the one ffmpeg recorded, captions at their recorded times.
    setup: (api) => api.request('PATCH', '/api/settings', { desktop: { narration: 'never' } }),
  });

  it('plays the video, and a click on a step seeks it to that caption', async () => {
    const { api, id } = session;
    const steps: object[] = [{ call: 'desktop.start_recording' }];
    for (const text of CAPTIONS) {
      steps.push({ call: 'desktop.annotate_recording', args: { text } }, { sleep: 1.2 });
    }
    steps.push({ call: 'desktop.stop_recording' });
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script(...steps) });
    await turnFinished(api, id, 1, 60_000);
    const failed = (await conversation(api, id)).events.filter(
      (e: any) => e.type === 'tool_result' && e.error,
    );
    expect(failed).toEqual([]);
    const [recording] = await waitFor(
      'the recording',
      async () => {
        const list = (await api.request('GET', `/api/sessions/${id}/recordings`)).body;
        return list.length > 0 && list;
      },
      15_000,
    );
    expect(recording.captions.map((c: any) => c.text)).toEqual(CAPTIONS);
    expect(recording.seconds).toBeGreaterThan(3);

    const page = await session.openView();
    await page
      .getByRole('tablist', { name: 'Panes' })
      .getByRole('tab', { name: 'Recordings' })
      .click();
    const panel = page.getByRole('tabpanel');
    const video = panel.locator('video');
    await video.waitFor();
    const list = panel.getByRole('list', { name: 'Steps' });
    await list.waitFor();
    expect(await list.getByRole('button').count()).toBe(CAPTIONS.length);

    // The file really loaded (from the box's workspace, over the files route).
    const handle = await video.elementHandle();
    await page.waitForFunction(
      (v) => v instanceof HTMLVideoElement && v.readyState >= 1 && v.duration > 0,
      handle,
      { timeout: 15_000 },
    );
    const loaded = await video.evaluate((v: HTMLVideoElement) => ({
      duration: v.duration,
      src: v.currentSrc,
      error: v.error?.code ?? null,
    }));
    expect(loaded.error).toBeNull();
    expect(loaded.src).toContain('/api/sessions/');
    expect(Math.abs(loaded.duration - recording.seconds)).toBeLessThan(1);
    await checkPage(page, 'recordings-pane');

    // Seek forwards to the last caption, then back to the second.
    for (const index of [2, 1]) {
      const caption = recording.captions[index] as { at: number; text: string };
      await list.getByRole('button', { name: new RegExp(caption.text) }).click();
      // Near the caption's time (a player that plays on after the seek moves on a little).
      const seeked = await page.waitForFunction(
        ({ v, at }) =>
          v instanceof HTMLVideoElement && !v.seeking && Math.abs(v.currentTime - at) < 0.5
            ? { t: v.currentTime }
            : null,
        { v: handle, at: caption.at },
        { timeout: 5000 },
      );
      expect(Math.abs((await seeked.jsonValue())!.t - caption.at)).toBeLessThan(0.5);
    }
    await checkPage(page, 'recordings-pane-seeked');
  }, 120_000);
});
