/**
 * sandbox_create_token's limits and the desktop tools a token reaches, once: the decider, the
 * tool's zod schema, the entry points' rule (tokenMay) and the docs read them from here.
 */

export type TokenAbility = 'view' | 'control';
export const TOKEN_ABILITIES: readonly TokenAbility[] = ['view', 'control'];
export const TOKEN_DEFAULT_ABILITIES: readonly TokenAbility[] = ['control'];

export const TOKEN_EXPIRES_MIN_SECONDS = 60;
export const TOKEN_EXPIRES_MAX_SECONDS = 3600;
export const TOKEN_EXPIRES_DEFAULT_SECONDS = 900;
export const TOKEN_ORIGINS_MAX = 10;

/**
 * Every tool a token reaches and the ability it needs. view watches the screen (screenshots,
 * the desktop's status, the accessibility tree); control also sends input and starts or
 * stops the desktop. No other tool is reachable: not exec, files, agents, stop or destroy.
 */
export const TOKEN_TOOLS: Readonly<Record<string, TokenAbility>> = {
  sandbox_screenshot: 'view',
  sandbox_accessibility_tree: 'view',
  sandbox_desktop: 'view',
  sandbox_input: 'control',
  sandbox_open_url: 'control',
  sandbox_accessibility_action: 'control',
};

/** The ability a call needs, or null when no token reaches the tool at all. */
export function abilityNeeded(tool: string, args: unknown): TokenAbility | null {
  if (!Object.hasOwn(TOKEN_TOOLS, tool)) return null;
  if (tool === 'sandbox_desktop') {
    // status only reads; start (the default) and stop change the desktop.
    const action = (args as { action?: unknown } | null)?.action;
    return action === 'status' ? 'view' : 'control';
  }
  return TOKEN_TOOLS[tool];
}

/** control includes view. */
export function abilitiesAllow(abilities: readonly TokenAbility[], needs: TokenAbility): boolean {
  return abilities.includes('control') || abilities.includes(needs);
}

/** The tools a token with these abilities may call at all (with view, sandbox_desktop's status). */
export function tokenTools(abilities: readonly TokenAbility[]): string[] {
  return Object.keys(TOKEN_TOOLS).filter((t) => abilitiesAllow(abilities, TOKEN_TOOLS[t]));
}
