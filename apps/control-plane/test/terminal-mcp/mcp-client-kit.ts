import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** An OAuth client of the terminal MCP as the SDK drives it; the "browser" is `consent`. */
class TestOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;
  constructor(private readonly scope?: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'Proof client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A person on the consent page: reads its form, signs in and allows; answers the code. */
async function consent(url: URL, username: string, password: string): Promise<string> {
  const page = await fetch(url);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${html}`);
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(
      m[1],
      m[2].replace(/&#(\d+);/g, (_x, c: string) => String.fromCharCode(Number(c))),
    );
  }
  form.set('username', username);
  form.set('password', password);
  form.set('decision', 'allow');
  const res = await fetch(new URL('/consent', url), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (res.status !== 302 || !code)
    throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return code;
}

export interface Notice {
  method: string;
  params: Record<string, unknown>;
}

export interface TerminalClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  notices: Notice[];
  /** Resolves with the first notice (from now or already received) that matches. */
  waitFor(match: (n: Notice) => boolean, timeoutMs?: number): Promise<Notice>;
  /** Calls a tool; answers its JSON (or throws with the error body for isError). */
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must be refused; answers the error body. */
  refused(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ statusCode: number; error: string; message: string }>;
  close(): Promise<void>;
}

/** Registers, consents as the person, and connects a real SDK client over Streamable HTTP. */
export async function connectTerminalClient(
  mcpUrl: string,
  person: { username: string; password: string },
  scope?: string,
): Promise<TerminalClient> {
  const provider = new TestOAuthProvider(scope);
  const first = await auth(provider, { serverUrl: mcpUrl, scope });
  if (first !== 'REDIRECT' || !provider.authorizationUrl) throw new Error(`auth answered ${first}`);
  const code = await consent(provider.authorizationUrl, person.username, person.password);
  const done = await auth(provider, { serverUrl: mcpUrl, authorizationCode: code, scope });
  if (done !== 'AUTHORIZED') throw new Error(`auth answered ${done}`);
  return wrap(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
}

/** A program's client: a bearer token (an org API key) instead of OAuth. */
export function connectWithBearer(mcpUrl: string, token: string): Promise<TerminalClient> {
  const headers = { authorization: `Bearer ${token}` };
  return wrap(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }));
}

async function wrap(transport: StreamableHTTPClientTransport): Promise<TerminalClient> {
  const client = new Client({ name: 'proof-client', version: '1.0.0' });
  const notices: Notice[] = [];
  const waiters = new Set<() => void>();
  client.fallbackNotificationHandler = (n) => {
    notices.push({ method: n.method, params: n.params ?? {} });
    for (const w of waiters) w();
    return Promise.resolve();
  };
  await client.connect(transport);
  const parse = (r: any) => JSON.parse((r.content as { text: string }[])[0].text) as unknown;
  return {
    client,
    transport,
    notices,
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = notices.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such notification; got ${JSON.stringify(notices.slice(-5))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      if (r.isError) throw new Error(`${name} refused: ${JSON.stringify(parse(r))}`);
      return parse(r);
    },
    async refused(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      if (!r.isError) throw new Error(`${name} was not refused: ${JSON.stringify(parse(r))}`);
      return parse(r) as { statusCode: number; error: string; message: string };
    },
    close: () => client.close(),
  };
}

export const statusNotice = (sessionId: string, status: string) => (n: Notice) =>
  n.method === 'notifications/session_status' &&
  n.params.sessionId === sessionId &&
  n.params.status === status;

export const outputNotice = (sessionId: string) => (n: Notice) =>
  n.method === 'notifications/output_available' && n.params.sessionId === sessionId;
