import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { z } from 'zod';
import { answer, type ToolContext } from '../tool-kit';

export const manageEndpointsInput = {
  action: z.enum(['list', 'create', 'update', 'delete']),
  endpoint: z
    .record(z.unknown())
    .optional()
    .describe('For create / update: { name, host, port (22), user, keyId, hostKeyFingerprint }.'),
  endpointId: z.string().min(1).max(200).optional().describe('For update / delete.'),
};

type Args = {
  action: 'list' | 'create' | 'update' | 'delete';
  endpoint?: Record<string, unknown>;
  endpointId?: string;
};

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) {
    throw new DomainError(ErrorCode.ValidationFailed, `${field} is required for ${action}`, {
      field,
    });
  }
  return value;
}

function run(ctx: ToolContext, { action, endpoint, endpointId }: Args): unknown {
  if (action === 'list') return ctx.endpoints.list();
  if (!ctx.canWriteEndpoints) {
    throw new DomainError(
      ErrorCode.Forbidden,
      `this connection's grant has no endpoint write access (scope endpoints:write): ${action} refused`,
    );
  }
  const { actor } = ctx.caller;
  switch (action) {
    case 'create':
      return ctx.endpoints.create(need(endpoint, 'endpoint', action), actor);
    case 'update':
      return ctx.endpoints.update(
        need(endpointId, 'endpointId', action),
        need(endpoint, 'endpoint', action),
        actor,
      );
    case 'delete': {
      const id = need(endpointId, 'endpointId', action);
      return ctx.endpoints.delete(id, actor).then(() => ({ endpointId: id, deleted: true }));
    }
  }
}

export function register(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'shellwatch_manage_endpoints',
    {
      title: 'Manage SSH endpoints',
      description:
        'CRUD for SSH endpoints visible to this account. action list → an array of endpoints; create (endpoint) and update (endpointId, endpoint: the fields to change) → the endpoint; delete (endpointId). An endpoint is { name, host, port, user, keyId, hostKeyFingerprint }: the fingerprint (SHA256:…) is pinned at the first approved connection when not given, and a changed host key is refused. A grant without endpoint write access may only list.',
      inputSchema: manageEndpointsInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) => answer(ctx, () => run(ctx, args)),
  );
}
