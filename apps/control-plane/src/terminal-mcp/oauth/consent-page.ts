import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function hidden(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${name}" value="${escape(value)}">`;
}

/**
 * The consent page: which client asks for what, and a sign-in with the local account. It
 * posts to /consent with the authorization request's parameters, which are checked again
 * there (nothing of this page is trusted).
 */
export function consentPage(
  client: OAuthClientInformationFull,
  params: AuthorizationParams,
  error: string | null,
): string {
  const name = escape(client.client_name ?? client.client_id);
  const scopes = (params.scopes ?? []).join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Allow ${name} to use terminals</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}button{margin-right:.5rem}</style>
</head><body>
<h1>Allow <em>${name}</em> to use Sessionboxer terminals?</h1>
<p>It will be able to ask for SSH terminals on your endpoints (each one still needs a person's approval)${scopes.includes('endpoints:write') || scopes === '' ? ' and to create, change and delete endpoints' : ''}.</p>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/consent">
${hidden('client_id', client.client_id)}${hidden('redirect_uri', params.redirectUri)}${hidden('state', params.state)}${hidden('code_challenge', params.codeChallenge)}${hidden('scope', scopes || undefined)}${hidden('resource', params.resource?.href)}
<label>User name <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button name="decision" value="allow">Sign in and allow</button><button name="decision" value="deny" formnovalidate>Deny</button>
</form></body></html>`;
}
