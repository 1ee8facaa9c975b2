import { convert, type AXNode } from './ax-convert';
import type { ChromiumHandle, ChromiumTabs } from './chromium-tree';
import { metricsOf } from './chromium-tree';
import { quadRect, toScreen, viewportOrigin } from './page-layout';
import { frameOffset, scrollFramesIntoView, type FrameLink } from './remote-frames';
import type { Bounds, SourceNode } from './tree-shape';

/**
 * Acting on a Chromium node found again by its ref's handle: the node is read anew first
 * (Accessibility.getPartialAXTree by backend node id) and must still have the role and name
 * it had when the tree was read; a press is a real mouse click at its centre, after scrolling
 * it into view, as a person's would be (an element with no box gets element.click()). A node of
 * a cross-site frame is read and focused through its frame's target, and clicked through its
 * tab at the frame's place there.
 */

/** The node changed or is gone: the caller refuses with stale_ref. */
export class StaleNode extends Error {}

/** A refusal of the action by the page (a node that takes no focus…): named, not stale. */
export class CannotAct extends Error {}

interface Found {
  /** The session of the node's target (its tab, or its cross-site frame). */
  sessionId: string;
  /** Its tab's session: the window, and where mouse input goes. */
  tabSessionId: string;
  chain: readonly FrameLink[];
  node: SourceNode<ChromiumHandle>;
}

type Quad = number[];

/** The node now, if it is still the one the ref was given for. */
export async function findAgain(tabs: ChromiumTabs, h: ChromiumHandle): Promise<Found> {
  if (h.backendNodeId === null) throw new StaleNode('the node has no DOM node');
  const chain = h.chain ?? [];
  const sessionId = await tabs.session(h.targetId).catch(() => {
    throw new StaleNode(chain.length > 0 ? 'its frame is gone' : 'its tab is closed');
  });
  const tabSessionId =
    chain.length > 0
      ? await tabs.session(chain[0].parentTargetId).catch(() => {
          throw new StaleNode('its tab is closed');
        })
      : sessionId;
  const cdp = tabs.cdp;
  const backendNodeId = h.backendNodeId;
  const got = await cdp<{ nodes: AXNode[] }>(
    'Accessibility.getPartialAXTree',
    { backendNodeId, fetchRelatives: false },
    sessionId,
  ).catch(() => {
    throw new StaleNode('its node is gone');
  });
  const ax = got.nodes.find((n) => n.backendDOMNodeId === backendNodeId);
  if (!ax) throw new StaleNode('its node is gone');
  const c = convert(ax);
  // A text repeating its parent's name was answered without it.
  const name = h.rawRole === 'StaticText' && h.name === '' ? '' : c.name;
  if (c.rawRole !== h.rawRole || name !== h.name) throw new StaleNode('its node changed');
  const [quads, m, at] = await Promise.all([
    cdp<{ quads: Quad[] }>('DOM.getContentQuads', { backendNodeId }, sessionId).then(
      (r) => r.quads,
      () => [] as Quad[],
    ),
    metricsOf(cdp, tabSessionId),
    frameOffset((t) => tabs.session(t), cdp, chain).catch(() => {
      throw new StaleNode('its frame is gone');
    }),
  ]);
  const o = viewportOrigin(m);
  let bounds: Bounds | null = null;
  let hidden = !m.visible;
  if (quads.length > 0) {
    const q = quadRect(quads[0]);
    const r = [q[0] + at.x, q[1] + at.y, q[2], q[3]];
    bounds = toScreen(o, r);
    const off =
      r[0] + r[2] <= 0 || r[1] + r[3] <= 0 || r[0] >= m.innerWidth || r[1] >= m.innerHeight;
    hidden ||= off;
  }
  const node: SourceNode<ChromiumHandle> = {
    role: c.role,
    name: c.name,
    states: hidden && m.visible ? [...c.states, 'offscreen'] : c.states,
    bounds,
    actions: c.actions,
    ...(c.text !== undefined ? { text: c.text } : {}),
    hidden,
    children: [],
    handle: h,
  };
  return { sessionId, tabSessionId, chain, node };
}

async function call(tabs: ChromiumTabs, sessionId: string, backendNodeId: number, fn: string) {
  const { object } = await tabs.cdp<{ object: { objectId: string } }>(
    'DOM.resolveNode',
    { backendNodeId },
    sessionId,
  );
  await tabs.cdp(
    'Runtime.callFunctionOn',
    { objectId: object.objectId, functionDeclaration: fn, awaitPromise: false },
    sessionId,
  );
}

async function press(tabs: ChromiumTabs, found: Found, backendNodeId: number) {
  const { cdp } = tabs;
  const { sessionId, chain } = found;
  const session = (t: string) => tabs.session(t);
  await scrollFramesIntoView(session, cdp, chain);
  await cdp('DOM.scrollIntoViewIfNeeded', { backendNodeId }, sessionId).catch(() => undefined);
  const quads = await cdp<{ quads: Quad[] }>('DOM.getContentQuads', { backendNodeId }, sessionId)
    .then((q) => q.quads)
    .catch((): Quad[] => []);
  const r = quads.length > 0 ? quadRect(quads[0]) : null;
  if (r === null || r[2] < 1 || r[3] < 1) {
    const el =
      'function () { const e = this.nodeType === 1 ? this : this.parentElement; e.click(); }';
    return call(tabs, sessionId, backendNodeId, el);
  }
  const o = await frameOffset(session, cdp, chain);
  const at = { x: o.x + r[0] + r[2] / 2, y: o.y + r[1] + r[3] / 2 };
  const tab = found.tabSessionId;
  await cdp('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at }, tab);
  for (const type of ['mousePressed', 'mouseReleased']) {
    await cdp('Input.dispatchMouseEvent', { type, ...at, button: 'left', clickCount: 1 }, tab);
  }
}

const SELECT_ALL = `function () {
  if (typeof this.select === 'function') return this.select();
  const r = document.createRange(); r.selectNodeContents(this);
  const s = getSelection(); s.removeAllRanges(); s.addRange(r);
}`;
const CLEAR = "function () { document.execCommand('delete'); }";
const CHANGED = "function () { this.dispatchEvent(new Event('change', { bubbles: true })); }";

async function focus(tabs: ChromiumTabs, sessionId: string, backendNodeId: number) {
  await tabs.cdp('DOM.focus', { backendNodeId }, sessionId).catch((e: Error) => {
    throw new CannotAct(`it takes no keyboard focus (${e.message})`);
  });
}

/**
 * set-text: focus, select all, then Chromium inserts the text as typing would (beforeinput
 * and input events), and a change event as when a person leaves the field.
 */
async function setText(tabs: ChromiumTabs, sessionId: string, backendNodeId: number, text: string) {
  await focus(tabs, sessionId, backendNodeId);
  await call(tabs, sessionId, backendNodeId, SELECT_ALL);
  if (text === '') await call(tabs, sessionId, backendNodeId, CLEAR);
  else await tabs.cdp('Input.insertText', { text }, sessionId);
  await call(tabs, sessionId, backendNodeId, CHANGED);
}

/** One action on a node found again (not read, which is the node itself). */
export async function actOn(
  tabs: ChromiumTabs,
  found: Found,
  action: string,
  text: string | undefined,
): Promise<void> {
  const id = found.node.handle.backendNodeId!;
  switch (action) {
    case 'press':
      return press(tabs, found, id);
    case 'focus':
      return focus(tabs, found.sessionId, id);
    case 'set-text':
      return setText(tabs, found.sessionId, id, text ?? '');
    default:
      throw new CannotAct(`Chromium has no action ${action}`);
  }
}
