import {
  TOKEN_EXPIRES_MAX_SECONDS,
  TOKEN_EXPIRES_MIN_SECONDS,
  TOKEN_ORIGINS_MAX,
} from '@sessionboxer/domain/sandbox-token';
import { z } from 'zod';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxCreateTokenTool = sandboxTool({
  name: 'sandbox_create_token',
  title: "A token for one sandbox's desktop",
  description:
    "Creates a token that opens one sandbox's desktop tools and live screen, and nothing else. Give it to a page or a program that must not hold your API key. Returns token, sandbox, abilities, origins and expires_at; the token is shown once. A token reaches only a sandbox that names no secrets, and only its desktop: not commands, files, SSH, coding agents, stop or destroy. Without origins, a request from a browser is refused; requests from a server, which send no Origin header, work. It stops working when it expires, when the key that minted it is revoked, when the sandbox is deleted, or when the sandbox has secrets. A sandbox with secrets is refused with sandbox_has_secrets.",
  input: {
    sandbox: sandboxRef().describe("Required. The sandbox's name or id; it must have no secrets."),
    abilities: z
      // Strings, not an enum: the domain's refusal names the parameter and both choices.
      .array(z.string().max(20))
      .optional()
      .describe(
        '["view"] or ["control"]. view watches the screen and takes screenshots; control also sends input and starts or stops the desktop. Default ["control"].',
      ),
    expires_in_seconds: z
      .number()
      .int()
      .optional()
      .describe(
        `How long the token works, ${TOKEN_EXPIRES_MIN_SECONDS} to ${TOKEN_EXPIRES_MAX_SECONDS}. Default 900.`,
      ),
    origins: z
      .array(z.string().max(2048))
      .optional()
      .describe(
        `Up to ${TOKEN_ORIGINS_MAX} pages that may use the token in a browser, each a scheme and host with no path: https://app.example.com. Default none.`,
      ),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  handle: (api, caller, args) => api.tokens.create(caller, args),
});
