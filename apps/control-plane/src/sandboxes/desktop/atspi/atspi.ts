import type { BoxDriver } from '../../../boxes';
import { atspiHelper } from './atspi-helper';
import {
  AtspiError,
  type AtspiApp,
  type AtspiExpect,
  type AtspiNode,
  type AtspiTreeOptions,
} from './atspi-types';

/**
 * The AT-SPI half of a sandbox's accessibility tree: the apps other than Chromium (GTK
 * programs sandbox_exec started while the desktop runs) on the desktop's own session bus,
 * read and acted on by one helper in the box (atspi-helper.ts).
 */

const PATH = /^\d{1,5}(\.\d{1,5}){0,199}$/;
const ACTION = /^[A-Za-z][A-Za-z0-9 _-]{0,63}$/;
const MAX_APP_NAME = 256;
const MAX_TEXT = 1 << 20;

const bad = (field: string, message: string) =>
  new AtspiError('invalid_argument', message, false, field);

function checkApp(app: unknown): string {
  if (typeof app !== 'string' || app.length === 0 || app.length > MAX_APP_NAME) {
    throw bad('app', `app must be an application name of 1 to ${MAX_APP_NAME} characters`);
  }
  return app;
}

/** The desktop's AT-SPI apps (or `opts.app` alone) and their nodes. */
export async function atspiTree(
  driver: BoxDriver,
  sandboxId: string,
  opts: AtspiTreeOptions,
): Promise<AtspiApp[]> {
  if (!Number.isInteger(opts.depth) || opts.depth < 1 || opts.depth > 200) {
    throw bad('depth', 'depth must be an integer from 1 to 200');
  }
  const app = opts.app === undefined ? null : checkApp(opts.app);
  const request = { op: 'tree', app, depth: opts.depth, includeHidden: opts.includeHidden };
  return (await atspiHelper(driver, sandboxId).request(request)) as AtspiApp[];
}

/**
 * Acts on the node at `path` of `app`: press (its click, press, activate or jump action),
 * focus, set-text (`text` required), read, or any name in its actions. With `expect`, a node
 * of another role or name at the path is refused (node_changed). Answers the node after, with
 * no children.
 */
export async function atspiAction(
  driver: BoxDriver,
  sandboxId: string,
  app: string,
  path: string,
  action: string,
  text?: string,
  expect?: AtspiExpect,
): Promise<AtspiNode> {
  checkApp(app);
  if (typeof path !== 'string' || !PATH.test(path)) {
    throw bad('path', 'path must be child indexes joined by dots, such as 0.3.1');
  }
  if (typeof action !== 'string' || !ACTION.test(action)) {
    throw bad('action', 'action must be press, focus, set-text, read or one of the node’s actions');
  }
  if (action === 'set-text' && typeof text !== 'string') {
    throw bad('text', 'set-text needs text: the field’s new text');
  }
  if (text !== undefined && (typeof text !== 'string' || text.length > MAX_TEXT)) {
    throw bad('text', `text must be a string of at most ${MAX_TEXT} characters`);
  }
  const request = { op: 'action', app, path, action, text: text ?? null, expect: expect ?? null };
  return (await atspiHelper(driver, sandboxId).request(request)) as AtspiNode;
}
