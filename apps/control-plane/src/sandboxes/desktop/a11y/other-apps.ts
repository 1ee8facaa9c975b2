import { ErrorCode } from '@sessionboxer/domain/kernel';
import { badArgument, refusal } from '@sessionboxer/domain/sandbox';
import type { BoxDriver } from '../../../boxes';
import { AtspiError, atspiAction, atspiTree, type AtspiNode } from '../atspi';
import type { SourceApp, SourceNode } from './tree-shape';

/**
 * The desktop's other applications (GTK programs sandbox_exec started), read over AT-SPI
 * (desktop/atspi/): every application but Chromium, whose web pages come from DevTools
 * (chromium-tree.ts) with their DOM's boxes. Their nodes keep AT-SPI's roles, states and
 * action names; a ref finds its node again by its path in the app, and AT-SPI checks that
 * the node there still has the role and name the ref was given for.
 */

/** What an AT-SPI ref finds its node again by (its path in the app; '' for the app itself). */
export interface OtherHandle {
  app: string;
  path: string;
  role: string;
  name: string;
}

export interface OtherAppsQuery {
  app?: string;
  depth: number;
  includeHidden: boolean;
}

/** Chromium's own AT-SPI app, if it has one: its pages are DevTools' part. */
const CHROMIUM = /^chrom(e|ium)\b/i;

function source(app: string, n: AtspiNode): SourceNode<OtherHandle> {
  return {
    role: n.role,
    name: n.name,
    states: n.states,
    bounds: n.bounds,
    actions: n.actions,
    ...(n.text !== undefined ? { text: n.text } : {}),
    // AT-SPI answers hidden nodes only when include_hidden asks for them.
    hidden: false,
    children: n.children.map((c) => source(app, c)),
    handle: { app, path: n.path, role: n.role, name: n.name },
  };
}

/**
 * The AT-SPI apps as applications of the tree, and whether one was cut. A tree of every app
 * does without AT-SPI when it fails (Chromium's part still answers); one app asked by name
 * does not.
 */
export async function otherApps(
  driver: BoxDriver,
  sandboxId: string,
  q: OtherAppsQuery,
): Promise<{ apps: SourceApp<OtherHandle>[]; truncated: boolean }> {
  if (q.app !== undefined && CHROMIUM.test(q.app)) return { apps: [], truncated: false };
  // The answer's depth counts the application as level 1; AT-SPI's counts below it.
  const query = { app: q.app, depth: Math.max(1, q.depth - 1), includeHidden: q.includeHidden };
  const apps = await atspiTree(driver, sandboxId, query).catch((e: unknown) => {
    if (e instanceof AtspiError && (q.app === undefined || e.code === 'app_gone')) return [];
    throw e;
  });
  const out = apps
    .filter((a) => !CHROMIUM.test(a.name))
    .map((a): SourceApp<OtherHandle> => ({
      role: 'application',
      name: a.name,
      states: [],
      bounds: null,
      actions: [],
      hidden: false,
      children: a.nodes.map((n) => source(a.name, n)),
      handle: { app: a.name, path: '', role: 'application', name: a.name },
    }));
  return { apps: out, truncated: apps.some((a) => a.truncated) };
}

/** AT-SPI's refusals in the API's words; a node changed or gone is the caller's stale ref. */
export class OtherStale extends Error {}

function refused(e: unknown, name: string): never {
  if (!(e instanceof AtspiError)) throw e;
  switch (e.code) {
    case 'app_gone':
    case 'node_gone':
    case 'node_changed':
      throw new OtherStale(e.message);
    case 'invalid_argument':
      throw badArgument(e.field === 'path' ? 'ref' : (e.field ?? 'action'), e.message);
    case 'action_not_offered':
    case 'action_failed':
      throw badArgument('action', e.message);
    case 'no_desktop':
      throw refusal('no_desktop', ErrorCode.InvalidState, `the desktop of ${name} is not running`);
    case 'failed':
      throw refusal('unavailable', ErrorCode.Unavailable, `AT-SPI did not answer: ${e.message}`);
  }
}

/** One action (or read) on an AT-SPI node: the node after it. */
export async function actOnOther(
  driver: BoxDriver,
  sandboxId: string,
  h: OtherHandle,
  action: string,
  text: string | undefined,
): Promise<SourceNode<OtherHandle>> {
  const expect = { role: h.role, name: h.name };
  const node = await atspiAction(driver, sandboxId, h.app, h.path, action, text, expect).catch(
    (e: unknown) => refused(e, sandboxId),
  );
  return source(h.app, node);
}
