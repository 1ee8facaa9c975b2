import { ErrorCode } from '@sessionboxer/domain';
import type { RunningApp } from '../harness';

/** What a field of a route's body takes, so the fuzz can give it what it does not take. */
export type FieldKind = 'text' | 'bool' | 'enum' | 'object' | 'optional-text';

/** A route of the admin API that reads a body, with a body it takes and its fields. */
export interface BodyRoute {
  method: string;
  path: string;
  /** A body the route takes (or refuses only for the state it is in, never for its shape). */
  base: Record<string, unknown>;
  /** Dotted paths into `base`'s shape, each with its kind. */
  fields: Record<string, FieldKind>;
  /** Public routes are called without the token. */
  public?: true;
}

/**
 * Every admin route that reads a body (the controllers under apps/control-plane/src; README's
 * route table). `:id` is a session made for the fuzz, `:none` an id that names nothing.
 */
export const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    path: '/api/sessions',
    base: { title: 'Fuzz' },
    fields: {
      title: 'text',
      provider: 'enum',
      model: 'optional-text',
      environment: 'enum',
      forkedFrom: 'object',
    },
  },
  {
    method: 'PATCH',
    path: '/api/sessions/:id',
    base: { title: 'Fuzz' },
    fields: { title: 'text' },
  },
  {
    method: 'POST',
    path: '/api/sessions/:id/stop',
    base: { reason: 'fuzz' },
    fields: { reason: 'optional-text' },
  },
  {
    method: 'POST',
    path: '/api/sessions/:id/prompts',
    base: { text: 'hello' },
    fields: { text: 'text', model: 'optional-text' },
  },
  {
    method: 'PATCH',
    path: '/api/sessions/:id/queue/:none',
    base: { text: 'edited' },
    fields: { text: 'text' },
  },
  {
    method: 'PATCH',
    path: '/api/sessions/:id/policy',
    base: { agentTools: 'session' },
    fields: { agentTools: 'enum', sessionCreation: 'enum' },
  },
  {
    method: 'PATCH',
    path: '/api/schedules/:none',
    base: { enabled: true },
    fields: { enabled: 'bool', skipMissed: 'bool' },
  },
  {
    method: 'PUT',
    path: '/api/settings/credentials/openrouterApiKey',
    base: { value: 'sk-or-fuzz' },
    fields: { value: 'text' },
  },
  {
    method: 'PUT',
    path: '/api/settings/mcp-registry/relays/terminals',
    base: { given: true },
    fields: { given: 'bool' },
  },
  {
    method: 'PUT',
    path: '/api/settings/mcp-registry/servers/fuzzed',
    base: { command: ['node', 'server.js'], env: { TOKEN: 'x' } },
    fields: { command: 'object', env: 'object', 'env.TOKEN': 'text' },
  },
  {
    method: 'PATCH',
    path: '/api/settings',
    base: { desktop: { askAboveSeconds: 5 } },
    fields: {
      'defaults.provider': 'enum',
      'defaults.model': 'text',
      'defaults.environment': 'enum',
      'sessionboxer.agentTools': 'enum',
      'sessionboxer.globalCap': 'object',
      'github.pollSeconds': 'object',
      'desktop.narration': 'enum',
      'autoQa.afterEachTurn': 'bool',
      'notifications.mcp.debounceMs': 'object',
    },
  },
  {
    method: 'POST',
    path: '/api/sessions/:id/snapshots/:none/fork',
    base: { title: 'Fork' },
    fields: { title: 'optional-text' },
  },
  {
    method: 'POST',
    path: '/api/auth/sign-in',
    base: { username: 'admin', password: 'not-the-password' },
    fields: {},
    public: true,
  },
  { method: 'POST', path: '/api/webhooks/github', base: {}, fields: {}, public: true },
  // Routes that read no body still parse one under the same policy.
  { method: 'POST', path: '/api/sessions/:id/interrupt', base: {}, fields: {} },
  {
    method: 'POST',
    path: '/api/approvals/:none/deny',
    base: {},
    fields: { reason: 'optional-text' },
  },
];

/** Every admin route that reads a query, with the keys it knows. */
export const QUERY_ROUTES: { path: string; keys: string[] }[] = [
  { path: '/api/events', keys: ['from', 'limit', 'direction'] },
  { path: '/api/streams/session-:id/events', keys: ['from', 'limit', 'direction'] },
  { path: '/api/sessions/:id/transcript', keys: ['after', 'limit'] },
  { path: '/api/sessions/:id/conversation', keys: ['after', 'limit'] },
  { path: '/api/sessions/:id/notifications', keys: ['after', 'limit'] },
  { path: '/api/sessions/:id/at', keys: ['position', 'time'] },
  { path: '/api/sessions/:id/terminals/:none', keys: ['lines'] },
  { path: '/api/sessions/:id/files', keys: ['path'] },
  { path: '/api/sessions/:id/dirs', keys: ['path'] },
];

export const NONE = '00000000-0000-4000-8000-000000000000';

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** One raw request: the text as it is, with the content type asked for. */
export async function send(
  api: RunningApp,
  route: { method: string; path: string; public?: true },
  id: string,
  text: string | undefined,
  contentType = 'application/json',
): Promise<Answer> {
  const res = await fetch(api.url + route.path.replace(':id', id).replace(':none', NONE), {
    method: route.method,
    headers: { 'content-type': contentType, ...(route.public ? {} : api.authHeaders) },
    body: text,
  });
  const body = await res.text();
  let parsed: unknown = null;
  try {
    parsed = body ? JSON.parse(body) : null;
  } catch {
    parsed = body;
  }
  return { status: res.status, body: parsed, text: body };
}

const CODES: string[] = Object.values(ErrorCode);

/** Why an answer breaks the rules of every answer, or null: no 5xx, and errors' one shape. */
export function answerProblem(a: Answer): string | null {
  if (a.status >= 500) return `answered ${a.status}: ${a.text.slice(0, 300)}`;
  if (a.status < 400) return null;
  const b = a.body as { statusCode?: unknown; error?: unknown; message?: unknown } | null;
  if (typeof b !== 'object' || b === null) return `a ${a.status} without a JSON body: ${a.text}`;
  if (b.statusCode !== a.status) return `statusCode ${String(b.statusCode)} on a ${a.status}`;
  if (typeof b.error !== 'string' || !CODES.includes(b.error))
    return `error ${String(b.error)} is no ErrorCode`;
  if (typeof b.message !== 'string' || b.message.length === 0) return 'no message';
  return null;
}

export async function headPosition(api: RunningApp): Promise<number> {
  const res = await fetch(`${api.url}/api/health/ready`, { headers: api.authHeaders });
  return ((await res.json()) as { headPosition: number }).headPosition;
}
