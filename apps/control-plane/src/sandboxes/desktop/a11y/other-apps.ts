import type { BoxDriver } from '../../../boxes';
import type { SourceApp } from './tree-shape';

/**
 * THE SEAM for the desktop's other applications (AT-SPI, desktop/atspi/, being built apart):
 * every application but Chromium, whose web pages come from DevTools (chromium-tree.ts) with
 * their DOM's boxes. Until atspi/ lands this reads none; then `otherApps` maps its
 * `atspiTree(driver, sandboxId, {app, depth, includeHidden})` apps (skipping Chromium's own)
 * into SourceApps and `actOnOther` calls its `atspiAction`. Nothing else changes: refs, the
 * answer's rules and the fingerprint check are the same for every application.
 */

/** What an AT-SPI ref finds its node again by (its path in the app), and its fingerprint. */
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

export function otherApps(
  _driver: BoxDriver,
  _sandboxId: string,
  _query: OtherAppsQuery,
): Promise<SourceApp<OtherHandle>[]> {
  return Promise.resolve([]);
}

export function actOnOther(
  _driver: BoxDriver,
  _sandboxId: string,
  handle: OtherHandle,
  action: string,
): Promise<SourceApp<OtherHandle>['children'][number] | null> {
  return Promise.reject(new Error(`${action} on ${handle.app}: no AT-SPI reader in this release`));
}
