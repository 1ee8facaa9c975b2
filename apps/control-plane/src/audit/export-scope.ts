/**
 * What a session's audit bundle holds and hides, for the API and the CLI alike.
 *
 * - A session's events: every stream named `<kind>-<session id>` (session, policy, egress…),
 *   every event whose data names the session (`sessionId`), and its conversations (those whose
 *   ConversationStarted names it as owner, from then on). With `family`, each session another
 *   of them created (SessionCreated's `createdBy`) joins, and so on down.
 * - Redaction hides each string the settings' rule removes (`withoutSecrets`: a secret-named
 *   key, a token, a key, a password in a URL…) and each one the credential masker would change
 *   (a credential's value anywhere in it). Metadata with any such string is hidden whole; an
 *   event where the masker would change a key is left out (its digest only). No rule is copied.
 */
import { withoutSecrets } from '@sessionboxer/domain';
import type { ChainedEvent, Redaction } from '@sessionboxer/event-store/chain';

/** Whether each event, in position order, belongs to the session (or its family). */
export function sessionSelection(sessionId: string, family: boolean): (e: ChainedEvent) => boolean {
  const sessions = new Set([sessionId]);
  const conversations = new Set<string>();
  const named = (stream: string): boolean => {
    const dash = stream.indexOf('-');
    const id = dash < 0 ? '' : stream.slice(dash + 1);
    return sessions.has(id) || (stream.startsWith('conversation-') && conversations.has(id));
  };
  return (e) => {
    const data = parse(e.data) as Record<string, unknown> | null;
    if (family && e.type === 'SessionCreated') {
      const by = (data?.createdBy as { sessionId?: unknown } | null)?.sessionId;
      if (typeof by === 'string' && sessions.has(by) && typeof data?.sessionId === 'string') {
        sessions.add(data.sessionId);
      }
    }
    if (e.type === 'ConversationStarted') {
      const owner = data?.owner as { kind?: unknown; sessionId?: unknown } | undefined;
      if (owner?.kind === 'session' && typeof owner.sessionId === 'string') {
        if (sessions.has(owner.sessionId) && typeof data?.conversationId === 'string') {
          conversations.add(data.conversationId);
        }
      }
    }
    if (named(e.streamName)) return true;
    return typeof data?.sessionId === 'string' && sessions.has(data.sessionId);
  };
}

/**
 * The redaction of one event's data and metadata; `mask` is the credential masker bound to the
 * installation's credentials (CredentialsService.mask, or maskSecrets over the vault's values).
 */
export function exportRedaction(
  mask: <T>(value: T) => T,
): (data: unknown, metadata: unknown) => Redaction | null {
  return (data, metadata) => {
    const leaves = hiddenLeaves(data, mask);
    if (leaves === 'whole') return { leaves: new Set(), metadata: false, whole: true };
    const meta = hiddenLeaves(metadata, mask);
    const hideMetadata = meta === 'whole' || meta.size > 0;
    return leaves.size > 0 || hideMetadata ? { leaves, metadata: hideMetadata } : null;
  };
}

/** The indexes of the strings to hide (stringLeaves' order), or `whole` when a key must go. */
function hiddenLeaves(value: unknown, mask: <T>(value: T) => T): Set<number> | 'whole' {
  const scrubbed = withoutSecrets(value);
  const masked = mask(value);
  const hide = new Set<number>();
  let index = 0;
  let whole = false;
  const visit = (v: unknown, s: unknown, m: unknown): void => {
    if (typeof v === 'string') {
      if (s === null || m !== v) hide.add(index);
      index++;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, (s as unknown[])[i], (m as unknown[])[i]));
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      const mKeys = Object.keys(m as object);
      if (keys.length !== mKeys.length || keys.some((k, i) => k !== mKeys[i])) whole = true;
      for (const k of keys) {
        const sv = (s as Record<string, unknown>)[k];
        const mv = (m as Record<string, unknown>)[k];
        visit((v as Record<string, unknown>)[k], sv, mv);
      }
    }
  };
  visit(value, scrubbed, masked);
  return whole ? 'whole' : hide;
}

function parse(text: string | Buffer): unknown {
  try {
    return JSON.parse(text.toString()) as unknown;
  } catch {
    return null;
  }
}
