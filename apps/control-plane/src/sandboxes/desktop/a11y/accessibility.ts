import { ErrorCode } from '@sessionboxer/domain/kernel';
import {
  A11Y_ACTIONS,
  A11Y_DEPTH_DEFAULT,
  A11Y_NODES_MAX,
  badArgument,
  refusal,
} from '@sessionboxer/domain/sandbox';
import type { KeyIdentity } from '../../../api-keys';
import type { SandboxDesktop } from '../sandbox-desktop.service';
import { BoxCdp } from './box-cdp';
import { actOn, CannotAct, findAgain, StaleNode } from './chromium-act';
import { chromiumApp, ChromiumTabs, type ChromiumHandle } from './chromium-tree';
import { actOnOther, OtherStale, otherApps, type OtherHandle } from './other-apps';
import { answerNode, shapeTree, type SourceApp } from './tree-shape';

/**
 * sandbox_accessibility_tree and sandbox_accessibility_action (docs/SANDBOXES.md,
 * Accessibility tree). Per sandbox, while its desktop runs: one DevTools connection in the
 * box, and the refs of the last read (a ref names a node of that read only: the numbers go on
 * from read to read, so an older ref is told apart from a never-given one).
 */

type Handle = ChromiumHandle | OtherHandle;

interface A11yState {
  /** The desktop this state is of: a desktop started again starts anew. */
  startedAt: string;
  cdp: BoxCdp;
  tabs: ChromiumTabs;
  refs: Map<string, Handle>;
  /** The first ref of the last read, and the next one to give. */
  firstRef: number;
  nextRef: number;
  read: boolean;
}

const states = new WeakMap<SandboxDesktop, Map<string, A11yState>>();

function stateOf(desktop: SandboxDesktop, sandboxId: string, startedAt: string): A11yState {
  let all = states.get(desktop);
  if (all === undefined) {
    all = new Map<string, A11yState>();
    states.set(desktop, all);
  }
  const had = all.get(sandboxId);
  if (had?.startedAt === startedAt) return had;
  had?.cdp.close();
  const cdp = new BoxCdp(desktop.driver, sandboxId);
  const tabs = new ChromiumTabs(cdp.send);
  const state: A11yState = {
    startedAt,
    cdp,
    tabs,
    refs: new Map(),
    firstRef: 1,
    nextRef: 1,
    read: false,
  };
  cdp.onDetached = (sessionId) => tabs.detached(sessionId);
  // Chromium gone (the desktop stopped, the box restarted): the next call connects anew.
  cdp.onGone = () => {
    if (all.get(sandboxId) === state) all.delete(sandboxId);
  };
  all.set(sandboxId, state);
  return state;
}

export interface TreeArgs {
  sandbox: string;
  app?: string;
  depth?: number;
  include_hidden?: boolean;
}

export function accessibilityTree(desktop: SandboxDesktop, caller: KeyIdentity, args: TreeArgs) {
  return desktop.with(caller, args.sandbox, 'accessibility_tree', async ({ doc, desktop: d }) => {
    const state = stateOf(desktop, doc.id, d.startedAt);
    const depth = args.depth ?? A11Y_DEPTH_DEFAULT;
    const includeHidden = args.include_hidden ?? false;
    const wantChromium = args.app === undefined || args.app === 'chromium';
    // THE merge: Chromium's pages from DevTools, then every other app from AT-SPI.
    const [chromium, others] = await Promise.all([
      wantChromium ? chromiumApp(state.tabs, includeHidden) : null,
      otherApps(desktop.driver, doc.id, { app: args.app, depth, includeHidden }),
    ]);
    const apps: SourceApp<Handle>[] = [...(chromium ? [chromium] : []), ...others.apps];
    if (args.app !== undefined && apps.length === 0) {
      throw badArgument('app', `no application ${args.app} is on the desktop of ${doc.id}`);
    }
    const shaped = shapeTree<Handle>(apps, {
      depth,
      includeHidden,
      max: A11Y_NODES_MAX,
      firstRef: state.nextRef,
    });
    state.refs = shaped.refs;
    state.firstRef = state.nextRef;
    state.nextRef = shaped.nextRef;
    state.read = true;
    return { ...shaped.answer, truncated: shaped.answer.truncated || others.truncated };
  });
}

export interface ActionArgs {
  sandbox: string;
  ref: string;
  action: string;
  text?: string;
}

function stale(ref: string, why: string): Error {
  return refusal(
    'stale_ref',
    ErrorCode.InvalidState,
    `${ref} ${why}: call sandbox_accessibility_tree again and retry with its refs`,
    { ref },
  );
}

function handleOf(state: A11yState | undefined, ref: string): Handle {
  const n = Number(ref.slice(1));
  if (!state?.read) throw stale(ref, 'is from no tree read on this desktop');
  const h = state.refs.get(ref);
  if (h !== undefined) return h;
  if (n < state.firstRef) throw stale(ref, 'is from an older read of the tree');
  throw badArgument('ref', `${ref} was not given by the last sandbox_accessibility_tree`);
}

export function checkAction(args: ActionArgs): void {
  if (args.action === 'set-text' && args.text === undefined) {
    throw badArgument('text', 'text is required for set-text: the field’s new text');
  }
  if (args.action !== 'set-text' && args.text !== undefined) {
    throw badArgument('text', `text is for set-text, not ${args.action}`);
  }
}

const isChromium = (h: Handle): h is ChromiumHandle => 'targetId' in h;

/** The node of `h` now (chromium: read anew and checked); StaleNode when it is not the same. */
async function nodeNow(state: A11yState, h: Handle, ref: string) {
  const found = await findAgain(state.tabs, h as ChromiumHandle).catch((e: unknown) => {
    throw e instanceof StaleNode ? stale(ref, `changed since the tree was read (${e.message})`) : e;
  });
  return found;
}

/** press, focus and set-text on Chromium's node; its node (before the action) for the event. */
async function actChromium(state: A11yState, h: ChromiumHandle, args: ActionArgs) {
  const found = await nodeNow(state, h, args.ref);
  const node = found.node;
  if (args.action === 'read') return node;
  if (!A11Y_ACTIONS.includes(args.action as never) && !node.actions.includes(args.action)) {
    throw badArgument(
      'action',
      `${args.ref} (${node.role}) has no action ${args.action}: its actions are ${node.actions.join(', ') || 'none'}, besides press, focus, set-text and read`,
    );
  }
  if (args.action === 'set-text' && !node.actions.includes('set-text')) {
    throw badArgument('action', `${args.ref} (${node.role}) is no field whose text can be set`);
  }
  await actOn(state.tabs, found, args.action, args.text).catch((e: unknown) => {
    throw e instanceof CannotAct
      ? badArgument('action', `${args.action} on ${args.ref}: ${e.message}`)
      : e;
  });
  return node;
}

export function accessibilityAction(
  desktop: SandboxDesktop,
  caller: KeyIdentity,
  args: ActionArgs,
) {
  checkAction(args);
  return desktop.with(caller, args.sandbox, 'accessibility_action', async ({ doc, desktop: d }) => {
    const had = states.get(desktop)?.get(doc.id);
    const state = had?.startedAt === d.startedAt ? had : undefined;
    const h = handleOf(state, args.ref);
    const root = isChromium(h) ? h.targetId === '' : h.path === '';
    if (root) {
      if (args.action !== 'read') {
        throw badArgument('action', `${args.ref} is the application ${h.app}: act on its nodes`);
      }
      const app = { role: 'application', name: h.app, states: [], bounds: null, actions: [] };
      return { ref: args.ref, ...app };
    }
    const node = isChromium(h)
      ? await actChromium(state!, h, args)
      : await actOnOther(desktop.driver, doc.id, h, args.action, args.text).catch((e: unknown) => {
          throw e instanceof OtherStale
            ? stale(args.ref, `changed since the tree was read (${e.message})`)
            : e;
        });
    if (args.action === 'read') return answerNode(node, args.ref);
    const act = {
      app: h.app,
      role: node.role,
      action: args.action,
      ...(args.action === 'set-text' ? { characters: [...args.text!].length } : {}),
    };
    await desktop.record(caller, doc.id, {
      type: 'RecordAccessibilityAction',
      data: { sandboxId: doc.id, act },
    });
    return { ref: args.ref, done: args.action };
  });
}
