import type { IncomingMessage } from 'node:http';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Actor } from '@sessionboxer/domain/kernel';
import type { WebSocket } from 'ws';

/**
 * The page's subprotocol when it holds a sandbox token (from its URL's #token=): the token
 * itself is the socket's first text frame, never in the URL or a header (logs keep those).
 */
export const TOKEN_PROTOCOL = 'sessionboxer.sandbox-token';
const TOKEN_WAIT_MS = 5_000;
const TOKEN_MAX_CHARS = 1024;

/** What a sandbox token names (helper C's SandboxTokens.authenticate answers with it). */
export interface SandboxTokenIdentity {
  sandboxId: string;
  abilities: readonly string[];
  /** The token's own id (never its secret): who watched, in the events. */
  tokenId: string;
  /** The API key that minted it, and its org. */
  keyId: string;
  orgId: string;
}

/** The seam to the sandbox tokens: provided by the tokens module as SANDBOX_VIEW_TOKENS. */
export interface SandboxViewTokens {
  authenticate(bearer: string, origin: string | undefined): Promise<SandboxTokenIdentity | null>;
}
export const SANDBOX_VIEW_TOKENS = Symbol('SandboxViewTokens');

/** Who opens a view: a signed-in person (any sandbox of their org), or a token (its one). */
export type SandboxViewer =
  { kind: 'person'; username: string } | { kind: 'token'; identity: SandboxTokenIdentity };

/** Who the view's events name: the person, or the key that minted the token (as its calls). */
export function viewerActor(viewer: SandboxViewer): Actor {
  if (viewer.kind === 'person') return { kind: 'person', id: viewer.username };
  const { keyId, orgId } = viewer.identity;
  return { kind: 'api-key', keyId, orgId };
}

export function wantsToken(request: IncomingMessage): boolean {
  const header = request.headers['sec-websocket-protocol'] ?? '';
  return header.split(',').some((p) => p.trim() === TOKEN_PROTOCOL);
}

/** The socket's first text frame: the token. Binary frames before it are refused. */
export function firstTextFrame(client: WebSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (e: Error | null, text = '') => {
      clearTimeout(timer);
      client.off('message', onMessage);
      client.off('close', onClose);
      if (e) reject(e);
      else resolve(text);
    };
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (isBinary || data.length > TOKEN_MAX_CHARS) {
        return done(unauthenticated('send the token as the first text frame, alone'));
      }
      done(null, data.toString('utf8').trim());
    };
    const onClose = () => done(new Error('the page left before sending its token'));
    const timer = setTimeout(
      () => done(unauthenticated(`no token within ${TOKEN_WAIT_MS / 1000} s`)),
      TOKEN_WAIT_MS,
    );
    client.on('message', onMessage);
    client.on('close', onClose);
  });
}

/**
 * The token checked for this sandbox and this view: its sandbox only, and control only with
 * the control ability (a view token watches).
 */
export async function tokenViewer(
  tokens: SandboxViewTokens | null,
  bearer: string,
  origin: string | undefined,
  sandboxId: string,
  control: boolean,
): Promise<SandboxViewer> {
  if (!tokens) {
    throw new DomainError(ErrorCode.Unavailable, 'sandbox tokens are not available here yet');
  }
  const identity = await tokens.authenticate(bearer, origin);
  if (!identity) {
    throw unauthenticated(
      'the token is not valid: expired, revoked, or not for this page’s origin',
    );
  }
  if (identity.sandboxId !== sandboxId) {
    throw new DomainError(ErrorCode.Forbidden, 'the token is for another sandbox');
  }
  const abilities = identity.abilities;
  if (!abilities.includes('view') && !abilities.includes('control')) {
    throw new DomainError(ErrorCode.Forbidden, 'the token cannot watch this sandbox');
  }
  if (control && !abilities.includes('control')) {
    throw new DomainError(ErrorCode.Forbidden, 'a view token cannot take control');
  }
  return { kind: 'token', identity };
}

function unauthenticated(message: string): DomainError {
  return new DomainError(ErrorCode.Unauthenticated, message);
}
