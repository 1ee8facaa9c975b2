import { ErrorCode, fold } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { SandboxCommand } from './sandbox.commands';
import { sandboxDecider } from './sandbox.decider';
import { DESKTOP_ACTIONS, desktopFor } from './sandbox.desktop';
import type { SandboxEvent } from './sandbox.events';

const spec = DeciderSpecification.for(sandboxDecider);
const ID = '3f2a9c01-1111-4222-8333-444455556666';

const created: SandboxEvent = {
  type: 'SandboxCreated',
  data: {
    sandboxId: ID,
    orgId: 'org-1',
    name: 'sb-3f2a9c',
    size: 'small',
    secrets: [],
    environment: 'default',
    idleTimeoutSeconds: 0,
    stopWhenAgentsFinish: false,
    metadata: {},
    idempotencyKey: null,
    forkedFrom: null,
    at: AT,
  },
};
const started: SandboxEvent = { type: 'SandboxStarted', data: { sandboxId: ID, at: AT } };
const cmd = (type: string, data: Record<string, unknown> = {}) =>
  ({ type, data: { sandboxId: ID, ...data }, metadata: meta() }) as SandboxCommand;
const screen = { display: ':1', width: 1280, height: 800 };
const start = (actions: readonly string[] = DESKTOP_ACTIONS) =>
  cmd('StartSandboxDesktop', { ...screen, actions: [...actions] });
const desktopStarted = (actions: readonly string[] = DESKTOP_ACTIONS): SandboxEvent => ({
  type: 'SandboxDesktopStarted',
  data: { sandboxId: ID, ...screen, actions: [...actions], at: AT },
});
const stoppedDesktop: SandboxEvent = {
  type: 'SandboxDesktopStopped',
  data: { sandboxId: ID, reason: 'requested', at: AT },
};
const click = cmd('RecordDesktopInput', { input: { action: 'click', button: 'left', count: 1 } });

describe('sandbox desktop', () => {
  it('starts on a running sandbox with this release’s actions; a second start is nothing', () => {
    spec.given([created, started]).when(start()).then([desktopStarted()]);
    spec.given([created, started, desktopStarted()]).when(start()).thenNothing();
  });

  it('is refused on a stopped or deleted sandbox', () => {
    const stopped: SandboxEvent = {
      type: 'SandboxStopped',
      data: { sandboxId: ID, reason: 'requested', at: AT },
    };
    spec
      .given([created, started, stopped])
      .when(start())
      .thenThrows(ErrorCode.InvalidState, /is stopped/);
    const destroyed: SandboxEvent = { type: 'SandboxDestroyed', data: { sandboxId: ID, at: AT } };
    spec
      .given([created, started, destroyed])
      .when(start())
      .thenThrows(ErrorCode.InvalidState, /was deleted/);
  });

  it('a later start keeps the actions of the first (an old sandbox stays old)', () => {
    const old = DESKTOP_ACTIONS.filter((a) => a !== 'input.scroll');
    spec
      .given([created, started, desktopStarted(old), stoppedDesktop])
      .when(start())
      .then([desktopStarted(old)]);
  });

  it('stops once; stopping a stopped desktop is nothing', () => {
    spec
      .given([created, started, desktopStarted()])
      .when(cmd('StopSandboxDesktop', { reason: 'requested' }))
      .then([stoppedDesktop]);
    spec
      .given([created, started])
      .when(cmd('StopSandboxDesktop', { reason: 'requested' }))
      .thenNothing();
  });

  it('records an input (what, no position) only while the desktop runs: no_desktop before', () => {
    spec
      .given([created, started, desktopStarted()])
      .when(click)
      .then([
        {
          type: 'SandboxDesktopInputSent',
          data: { sandboxId: ID, input: { action: 'click', button: 'left', count: 1 }, at: AT },
        },
      ]);
    spec
      .given([created, started])
      .when(click)
      .thenThrows(ErrorCode.InvalidState, /not running/);
    spec
      .given([created, started, desktopStarted(), stoppedDesktop])
      .when(cmd('RecordUrlsOpened', { count: 2 }))
      .thenThrows(ErrorCode.InvalidState, /start it with sandbox_desktop/);
  });

  it('refuses an action the sandbox’s desktop started without: desktop_outdated', () => {
    const old = DESKTOP_ACTIONS.filter((a) => a !== 'input.click');
    spec
      .given([created, started, desktopStarted(old)])
      .when(click)
      .thenThrows(ErrorCode.InvalidState, /before the desktop action input.click existed/);
    const state = fold(sandboxDecider, [created, started, desktopStarted(old)]);
    expect(() => desktopFor(state.desktop, 'sb', 'input.click')).toThrow(
      expect.objectContaining({ details: { code: 'desktop_outdated', action: 'input.click' } }),
    );
    expect(() => desktopFor(null, 'sb', 'screenshot')).toThrow(
      expect.objectContaining({ details: { code: 'no_desktop' } }),
    );
  });

  it('records an accessibility action (app, role, action, a length: never the text)', () => {
    const act = { app: 'chromium', role: 'textbox', action: 'set-text', characters: 3 };
    const record = cmd('RecordAccessibilityAction', { act });
    spec
      .given([created, started, desktopStarted()])
      .when(record)
      .then([{ type: 'SandboxDesktopAccessibilityActed', data: { sandboxId: ID, act, at: AT } }]);
    spec
      .given([created, started])
      .when(record)
      .thenThrows(ErrorCode.InvalidState, /not running/);
    const old = DESKTOP_ACTIONS.filter((a) => !a.startsWith('accessibility_'));
    spec
      .given([created, started, desktopStarted(old)])
      .when(record)
      .thenThrows(ErrorCode.InvalidState, /before the desktop action accessibility_action existed/);
    const state = fold(sandboxDecider, [created, started, desktopStarted(old)]);
    expect(() => desktopFor(state.desktop, 'sb', 'accessibility_tree')).toThrow(
      expect.objectContaining({
        details: { code: 'desktop_outdated', action: 'accessibility_tree' },
      }),
    );
    const now = fold(sandboxDecider, [created, started, desktopStarted()]);
    expect(desktopFor(now.desktop, 'sb', 'accessibility_tree').running).toBe(true);
  });

  it('desktop events leave updated_at as it was', () => {
    const later = { ...desktopStarted(), data: { ...desktopStarted().data, at: '2030-01-01' } };
    const state = fold(sandboxDecider, [created, started, later as SandboxEvent]);
    expect(state.updatedAt).toBe(AT);
    expect(state.desktop).toMatchObject({ running: true, width: 1280, display: ':1' });
  });
});
