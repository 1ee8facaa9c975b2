/**
 * `sessionboxer sandbox token SANDBOX`: sandbox_create_token (`div sandbox token`) with an API
 * key, through sandbox.command's REST call. Prints the answer as JSON: the token is shown once.
 */
export const TOKEN_HELP = `  sessionboxer sandbox token SANDBOX [--ability view|control] [--expires-in SECONDS]
        [--origin https://app.example.com]...   (a token for the sandbox's desktop only)`;

export const TOKEN_OPTIONS = {
  ability: { type: 'string' },
  'expires-in': { type: 'string' },
  origin: { type: 'string', multiple: true },
} as const;

interface TokenValues {
  ability?: string;
  'expires-in'?: string;
  origin?: string[];
}

/** The tool and arguments of `sandbox token …`; the server checks every value. */
export function tokenCall(rest: string[], v: TokenValues): [string, Record<string, unknown>] {
  const args: Record<string, unknown> = { sandbox: rest[0] };
  if (v.ability !== undefined) args.abilities = [v.ability];
  if (v['expires-in'] !== undefined) args.expires_in_seconds = Number(v['expires-in']);
  if (v.origin !== undefined) args.origins = v.origin;
  return ['sandbox_create_token', args];
}
