import { useEffect } from 'react';
import { useNow } from '../../hooks';
import { TerminalCard } from './TerminalApprovals';
import { loadTerminals, useTerminals } from './terminals-store';

/** In the asking session's transcript: the endpoint-auth card while it waits for an answer. */
export function PendingTerminalCard({ terminalId }: { terminalId: string }) {
  const list = useTerminals();
  const now = useNow();
  const t = list.find((x) => x.terminalId === terminalId);
  useEffect(() => {
    if (!t) void loadTerminals().catch(() => undefined);
  }, [t]);
  if (!t || !t.awaitingApproval || Date.parse(t.expiresAt) <= now) return null;
  return <TerminalCard t={t} now={now} />;
}
