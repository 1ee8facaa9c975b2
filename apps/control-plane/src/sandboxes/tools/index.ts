import { agentConversationsTool } from './agent_conversations';
import { agentPromptTool } from './agent_prompt';
import { createEnvironmentTool } from './create_environment';
import { listEnvironmentsTool } from './list_environments';
import { sandboxCreateTool } from './sandbox_create';
import { sandboxCreateTokenTool } from './sandbox_create_token';
import { sandboxDestroyTool } from './sandbox_destroy';
import { sandboxExecTool } from './sandbox_exec';
import { sandboxForkTool } from './sandbox_fork';
import { sandboxListTool } from './sandbox_list';
import { sandboxReadFileTool } from './sandbox_read_file';
import { sandboxResumeTool } from './sandbox_resume';
import { sandboxStopTool } from './sandbox_stop';
import { sandboxUpdateTool } from './sandbox_update';
import { sandboxWriteFileTool } from './sandbox_write_file';
import type { AnySandboxTool } from './sandbox-tool';
import { setSecretTool } from './set_secret';
import { setSecretProductsTool } from './set_secret_products';
import { sandboxDesktopTool } from './sandbox_desktop';
import { sandboxInputTool } from './sandbox_input';
import { sandboxOpenUrlTool } from './sandbox_open_url';
import { sandboxScreenshotTool } from './sandbox_screenshot';
import { sandboxAccessibilityActionTool } from './sandbox_accessibility_action';
import { sandboxAccessibilityTreeTool } from './sandbox_accessibility_tree';

/** Every tool of the sandbox API, for the MCP server, the REST API and the OpenAPI doc. */
export const SANDBOX_TOOLS = [
  sandboxCreateTool,
  sandboxListTool,
  sandboxUpdateTool,
  sandboxStopTool,
  sandboxResumeTool,
  sandboxForkTool,
  sandboxDestroyTool,
  sandboxExecTool,
  sandboxReadFileTool,
  sandboxWriteFileTool,
  sandboxDesktopTool,
  sandboxOpenUrlTool,
  sandboxScreenshotTool,
  sandboxInputTool,
  sandboxAccessibilityTreeTool,
  sandboxAccessibilityActionTool,
  sandboxCreateTokenTool,
  agentPromptTool,
  agentConversationsTool,
  createEnvironmentTool,
  listEnvironmentsTool,
  setSecretTool,
  setSecretProductsTool,
] as unknown as readonly AnySandboxTool[];

export type { AnySandboxTool, SandboxApi } from './sandbox-tool';
