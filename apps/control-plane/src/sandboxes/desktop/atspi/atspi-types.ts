/** One application on the sandbox's desktop that registered with AT-SPI (GTK programs). */
export interface AtspiApp {
  /** The app's AT-SPI name (GTK: the program name, e.g. "app.py"); "name#2" for a second one. */
  name: string;
  /** Its windows, each a tree. */
  nodes: AtspiNode[];
  /** The app passed 20,000 nodes and the rest was left out. */
  truncated: boolean;
}

export interface AtspiNode {
  /** Child indexes from the app ("0.3.1": window 0, its child 3, that one's child 1). */
  path: string;
  /** AT-SPI's role name: "push button", "label", "text", "frame"… */
  role: string;
  name: string;
  /** AT-SPI state names: "showing", "visible", "focused", "editable"… */
  states: string[];
  /** [x, y, width, height] in screen pixels; null when the node has no extents. */
  bounds: [number, number, number, number] | null;
  /** The node's AT-SPI action names ("click", "activate"…). */
  actions: string[];
  /** The text of an editable field. */
  text?: string;
  children: AtspiNode[];
}

export interface AtspiTreeOptions {
  /** Only the app of this name. */
  app?: string;
  /** Levels of nodes below the app, 1 to 200: 1 lists the windows alone. */
  depth: number;
  /** Also nodes not showing and visible (with their subtrees). */
  includeHidden: boolean;
}

/** Who checks that a path still holds the node a ref was made for. */
export interface AtspiExpect {
  role: string;
  name?: string;
}

export type AtspiErrorCode =
  | 'invalid_argument' // a bad path, depth, action or text (field says which)
  | 'no_desktop' // the desktop's bus is not running
  | 'app_gone' // no app of that name
  | 'node_gone' // no node at that path
  | 'node_changed' // the node at the path is not the one expected
  | 'action_not_offered' // the node does not offer the action
  | 'action_failed' // the app refused the action
  | 'failed'; // the helper ended or AT-SPI did not answer

export class AtspiError extends Error {
  constructor(
    readonly code: AtspiErrorCode,
    message: string,
    /** Internal: the helper was stale (its bus restarted); the request is sent once more. */
    readonly retry = false,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AtspiError';
  }
}
