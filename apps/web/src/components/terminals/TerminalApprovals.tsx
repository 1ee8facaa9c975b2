import { useEffect, useState } from 'react';
import type { SshTerminalView } from '@sessionboxer/contracts';
import { errorText, post } from '../../api';
import { useNow } from '../../hooks';
import { parseRoute, usePathname } from '../../router';
import { loadTerminals, useTerminals } from './terminals-store';

export function TerminalCard({ t, now }: { t: SshTerminalView; now: number }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const left = Math.max(0, Math.ceil((Date.parse(t.expiresAt) - now) / 1000));
  const e = t.endpoint;
  const answer = (verb: 'allow' | 'deny') => {
    setBusy(true);
    post(`/api/terminals/${encodeURIComponent(t.terminalId)}/${verb}`).then(
      () => setBusy(false),
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err));
      },
    );
  };
  return (
    <article className="approval-card" aria-label={`Terminal request for ${e.name}`}>
      <h2>Open an SSH terminal on {e.name}?</h2>
      <p>
        <strong>{t.requester}</strong> asks for a terminal as{' '}
        <code>
          {e.user}@{e.host}:{e.port}
        </code>
        .
      </p>
      <p>
        Host key:{' '}
        {e.hostKeyFingerprint ? (
          <code>{e.hostKeyFingerprint}</code>
        ) : (
          <span>not pinned yet: this connection pins the key the server shows</span>
        )}
      </p>
      <p className="muted">Refused in {left} s without an answer.</p>
      {error && <p role="alert">{error}</p>}
      <button type="button" disabled={busy} onClick={() => answer('allow')}>
        Allow
      </button>
      <button type="button" disabled={busy} onClick={() => answer('deny')}>
        Deny
      </button>
    </article>
  );
}

/**
 * The endpoint-auth cards: every pending SSH terminal, on whatever page the person is, but
 * on the page of the session whose agent asked, where the card shows in its transcript.
 */
export function TerminalApprovals() {
  const list = useTerminals();
  const now = useNow();
  const route = parseRoute(usePathname());
  const viewing = route.name === 'session' ? route.id : null;
  useEffect(() => {
    void loadTerminals().catch(() => undefined);
  }, []);
  const pending = list.filter(
    (t) =>
      t.awaitingApproval &&
      Date.parse(t.expiresAt) > now &&
      (viewing === null || t.forSession !== viewing),
  );
  if (pending.length === 0) return null;
  return (
    <section className="terminal-approvals" aria-label="Terminal approvals">
      {pending.map((t) => (
        <TerminalCard key={t.terminalId} t={t} now={now} />
      ))}
    </section>
  );
}
