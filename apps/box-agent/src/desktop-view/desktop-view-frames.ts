import {
  desktopViewClosePush,
  desktopViewRequest,
} from '@sessionboxer/mcp-adapters/bridge/desktop-view';
import { describeIssues, requestId, type TerminalAnswer } from '../gateway/frames';
import type { Log } from '../log';
import { DesktopViewError, type DesktopViews } from './desktop-views';

export interface DesktopViewFrameDeps {
  desktopViews: DesktopViews;
  reply(event: 'terminal.answer', data: TerminalAnswer): void;
  log: Log;
}

/** `desktop.view` (a request: answered once the view's connection is open) and `desktop.view.close`. */
export function handleDesktopViewFrame(
  deps: DesktopViewFrameDeps,
  event: 'desktop.view' | 'desktop.view.close',
  data: unknown,
): void {
  if (event === 'desktop.view.close') {
    const parsed = desktopViewClosePush.safeParse(data);
    if (parsed.success) deps.desktopViews.close(parsed.data.viewId);
    else deps.log.warn(`ignored a malformed ${event} frame: ${describeIssues(parsed.error)}`);
    return;
  }
  const parsed = desktopViewRequest.safeParse(data);
  if (!parsed.success) {
    const message = `malformed ${event} request: ${describeIssues(parsed.error)}`;
    deps.log.warn(message);
    const id = requestId.safeParse(data);
    if (id.success) {
      deps.reply('terminal.answer', {
        requestId: id.data.requestId,
        ok: false,
        error: { code: 'VALIDATION_FAILED', message },
      });
    }
    return;
  }
  const { requestId: id, viewId, control } = parsed.data;
  deps.desktopViews.open(viewId, control).then(
    () => deps.reply('terminal.answer', { requestId: id, ok: true, result: { viewId } }),
    (e: unknown) => {
      const code = e instanceof DesktopViewError ? e.code : 'UNAVAILABLE';
      const message = e instanceof Error ? e.message : String(e);
      deps.reply('terminal.answer', { requestId: id, ok: false, error: { code, message } });
    },
  );
}
