import type { Cdp } from './box-cdp';
import { readTarget, type TabRead } from './chromium-read';
import {
  METRICS_EXPRESSION,
  toScreen,
  viewportOrigin,
  type Rect,
  type WindowMetrics,
} from './page-layout';
import type { FrameTarget } from './remote-frames';
import type { ChromiumHandle, TargetSessions } from './chromium-handle';

export type { ChromiumHandle } from './chromium-handle';
import type { SourceApp, SourceNode } from './tree-shape';

/**
 * The desktop's tabs over one DevTools connection: a flattened session per target (a tab, or a
 * frame of another site), attached once with the Accessibility domain enabled, so Chromium
 * keeps its tree built (forced on without --force-renderer-accessibility) and each later read
 * is one call per frame.
 */
export class ChromiumTabs implements TargetSessions {
  private readonly sessions = new Map<string, Promise<string>>();

  constructor(readonly cdp: Cdp) {}

  session(targetId: string): Promise<string> {
    let s = this.sessions.get(targetId);
    if (s === undefined) {
      s = this.attach(targetId);
      this.sessions.set(targetId, s);
      s.catch(() => this.sessions.delete(targetId));
    }
    return s;
  }

  /** A session Chromium detached (its tab closed): attached again at its next use. */
  detached(sessionId: string): void {
    for (const [target, s] of this.sessions) {
      void s.then(
        (id) => id === sessionId && this.sessions.delete(target),
        () => undefined,
      );
    }
  }

  /** The tabs, and the frames of another site (each a target of its own), in one call. */
  async targets(): Promise<{ pages: string[]; frames: FrameTarget[] }> {
    const { targetInfos } = await this.cdp<{
      targetInfos: { type: string; targetId: string; parentFrameId?: string }[];
    }>('Target.getTargets');
    return {
      pages: targetInfos.filter((t) => t.type === 'page').map((t) => t.targetId),
      frames: targetInfos
        .filter((t) => t.type === 'iframe' && t.parentFrameId)
        .map((t) => ({ targetId: t.targetId, parentFrameId: t.parentFrameId! })),
    };
  }

  private async attach(targetId: string): Promise<string> {
    const { sessionId } = await this.cdp<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    await this.cdp('Accessibility.enable', {}, sessionId);
    return sessionId;
  }
}

export async function metricsOf(cdp: Cdp, sessionId: string): Promise<WindowMetrics> {
  const r = await cdp<{ result: { value: WindowMetrics } }>(
    'Runtime.evaluate',
    { expression: METRICS_EXPRESSION, returnByValue: true },
    sessionId,
  );
  return r.result.value;
}

/**
 * Chromium as an application of the tree: the tab on screen (every tab with include_hidden),
 * or null when Chromium has no page.
 */
export async function chromiumApp(
  tabs: ChromiumTabs,
  includeHidden: boolean,
): Promise<SourceApp<ChromiumHandle> | null> {
  const { pages, frames } = await tabs.targets();
  const seen = await Promise.all(
    pages.map(async (targetId) => {
      const sessionId = await tabs.session(targetId);
      return { targetId, sessionId, m: await metricsOf(tabs.cdp, sessionId) };
    }),
  );
  const shown = seen.filter((t) => includeHidden || t.m.visible);
  const docs = await Promise.all(
    shown.map((t) => {
      const o = viewportOrigin(t.m);
      const read: TabRead = {
        tabs,
        hiddenTab: !t.m.visible,
        remote: frames,
        toScreen: (r) => toScreen(o, r),
      };
      const viewport: Rect = [0, 0, t.m.innerWidth, t.m.innerHeight];
      return readTarget(read, t.targetId, t.sessionId, {
        box: viewport,
        clip: viewport,
        chain: [],
      });
    }),
  );
  const front = seen.find((t) => t.m.visible)?.m;
  const s = front?.devicePixelRatio || 1;
  return {
    role: 'application',
    name: 'chromium',
    states: [],
    bounds: front
      ? [front.screenX * s, front.screenY * s, front.outerWidth * s, front.outerHeight * s]
      : null,
    actions: [],
    hidden: false,
    children: docs.filter((d): d is SourceNode<ChromiumHandle> => d !== null),
    handle: {
      app: 'chromium',
      targetId: '',
      backendNodeId: null,
      rawRole: 'application',
      name: 'chromium',
    },
  };
}
