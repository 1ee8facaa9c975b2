import type { Cdp } from './box-cdp';
import type { FrameLink } from './remote-frames';

/** What a Chromium ref finds its node again by, and the fingerprint it must still match. */
export interface ChromiumHandle {
  app: 'chromium';
  targetId: string;
  backendNodeId: number | null;
  rawRole: string;
  name: string;
  /** For a node of a cross-site frame: the iframes from its tab down to its target. */
  chain?: FrameLink[];
}

/** A DevTools session per target, attached once (ChromiumTabs). */
export interface TargetSessions {
  readonly cdp: Cdp;
  session(targetId: string): Promise<string>;
}
