// The shapes that cross the wire between the control plane and the web UI: the REST bodies
// the UI reads and the `/api/ui` frames. Types only (with domain types, imported as types),
// so the browser bundle gets nothing of the server from it. docs/ARCHITECTURE.md says why.
export type * from './auth';
export type * from './sessions';
export type * from './transcript';
export type * from './panes';
export type * from './agent-sessions';
export type * from './settings';
export type * from './repositories';
export type * from './egress';
export type * from './ui-socket';
export type * from './vocabulary';
export type * from './timeline';
export type * from './terminals';
export type * from './inbox';
export type * from './search';
