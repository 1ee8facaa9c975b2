/** What needs a person: an approval waiting, an agent's `notify`, a turn that failed. */
export type InboxItemKind = 'approval' | 'notification' | 'turn';

/** One item of the inbox (GET /api/inbox), `read` being the signed-in person's own state. */
export interface InboxItem {
  /** `<kind>:<id>`: unique across kinds. */
  id: string;
  kind: InboxItemKind;
  sessionId: string;
  sessionTitle: string;
  text: string;
  at: string;
  read: boolean;
}

/** GET /api/inbox: newest first, with the unread counts the title and the sidebar show. */
export interface InboxPage {
  items: InboxItem[];
  unreadCount: number;
  unreadBySession: Record<string, number>;
}

/** POST /api/inbox/read: some items, a session's, or all of them. */
export type InboxReadRequest = { itemIds: string[] } | { sessionId: string } | { all: true };
