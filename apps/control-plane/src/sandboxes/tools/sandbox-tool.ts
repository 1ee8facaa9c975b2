import type { ApiKeyScope } from '@sessionboxer/domain/api-key';
import type { z } from 'zod';
import type { KeyIdentity } from '../../api-keys';
import type { SandboxDesktop } from '../desktop/sandbox-desktop.service';
import type { Environments } from '../environments.service';
import type { SandboxAgents } from '../sandbox-agents';
import type { SandboxWork } from '../sandbox-work';
import type { Sandboxes } from '../sandboxes.service';
import type { SandboxTokens } from '../tokens/sandbox-tokens.service';

/** What a tool's handler reaches: the module's services. */
export interface SandboxApi {
  sandboxes: Sandboxes;
  work: SandboxWork;
  environments: Environments;
  agents: SandboxAgents;
  desktop: SandboxDesktop;
  tokens: SandboxTokens;
}

/**
 * One tool of the sandbox API as data: the spec's name, ONE zod shape that validates the MCP
 * call, the REST body (`POST /v1/<name>`) and the CLI's arguments, the scope it needs (read
 * tools `sandboxes:read`, every other `sandboxes:write`), and its handler.
 */
export interface SandboxTool<Shape extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  scope: ApiKeyScope;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  handle(api: SandboxApi, caller: KeyIdentity, args: z.infer<z.ZodObject<Shape>>): Promise<unknown>;
}

export type AnySandboxTool = SandboxTool<z.ZodRawShape>;

export function sandboxTool<Shape extends z.ZodRawShape>(
  tool: SandboxTool<Shape>,
): SandboxTool<Shape> {
  return tool;
}
