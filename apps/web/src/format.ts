import type { Actor, SessionEnvironment } from '@sessionboxer/contracts';
import { HARNESS_NAMES, SESSION_ENVIRONMENTS, type HarnessName } from '@sessionboxer/domain/limits';

// The lists are the domain's (the server checks the same ones); the labels are the UI's, and
// their Record types make a provider or environment added there fail here until it has one.
const PROVIDERS: Record<HarnessName, string> = {
  'claude-code': 'Claude Code',
  opencode: 'OpenCode',
  scripted: 'Scripted agent',
};

/** The providers a new session may use, as the New session form offers them. */
export const PROVIDER_IDS: readonly string[] = HARNESS_NAMES;

/** A provider's display name ("Claude Code"), else its id. */
export function providerName(provider: string): string {
  return PROVIDERS[provider as HarnessName] ?? provider;
}

const ENVIRONMENTS: Record<SessionEnvironment, string> = {
  'docker-linux': 'Docker · Linux',
  'qemu-windows': 'QEMU · Windows',
  'qemu-macos': 'QEMU · macOS',
};

export const ENVIRONMENT_IDS: SessionEnvironment[] = [...SESSION_ENVIRONMENTS];

export function environmentName(environment: string): string {
  return ENVIRONMENTS[environment as SessionEnvironment] ?? environment;
}

/** A short local date and time. */
export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Seconds as m:ss (or h:mm:ss). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** Who did something, as a transcript line names them. */
export function actorName(actor: Actor, titleOf: (sessionId: string) => string | null): string {
  switch (actor.kind) {
    case 'person':
      return actor.id;
    case 'agent': {
      const title = titleOf(actor.sessionId);
      return title === null ? 'An agent' : `Session ${title} (its agent)`;
    }
    case 'api-key':
      return `API key ${actor.keyId}`;
    case 'system':
      return actor.id === 'scheduler' ? 'A scheduled task' : 'Sessionboxer';
  }
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A URL from agent or forge data, if it is safe to link to: http(s) only, so a
 * `javascript:` or `data:` URL never becomes a clickable link.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
