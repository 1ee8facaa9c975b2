import type { SessionEnvironment } from '@sessionboxer/domain';

/** The environments as the UI names them. */
export const ENVIRONMENT_LABELS: Record<SessionEnvironment, string> = {
  'docker-linux': 'Docker · Linux',
  'qemu-windows': 'QEMU · Windows',
  'qemu-macos': 'QEMU · macOS',
};

export interface BriefingInput {
  title: string;
  environment: SessionEnvironment;
}

/** What a Windows or macOS guest's agent must know to open programs there. */
function guestLines(environment: SessionEnvironment): string[] {
  if (environment === 'qemu-windows') {
    return [
      'The desktop is a Windows guest seen over remote desktop: open programs from the Start menu (click Start, type the name, press Return). Win-key shortcuts may not reach the guest, and typing is paced at 40 ms a key.',
    ];
  }
  if (environment === 'qemu-macos') {
    return [
      'The desktop is a macOS guest seen over VNC: open programs with Spotlight (super+space, type the name, press Return); ⌘ is super. Typing is paced at 40 ms a key.',
    ];
  }
  return [];
}

/**
 * The text that opens a session's first prompt: where the agent is, which tools it has and
 * how to use them well. Pure, so a test can read exactly what an agent is told.
 */
export function briefing(input: BriefingInput): string {
  return [
    `You are the agent of the Sessionboxer session “${input.title}”, environment ${ENVIRONMENT_LABELS[input.environment]}. Your workspace is /workspace; /workspace/.sessionboxer/session.json says which session this is.`,
    "You have two MCP servers from Sessionboxer. `desktop` sees and drives this box's screen: screenshot, zoom, clicks, typing, keys, scrolling, and recordings with captions. `sessionboxer` tells you about this session and acts on Sessionboxer: whoami, docs, settings_get, title_set, notify, snapshot, pr_attach and the PR tools, queue_add and queue_list, the terminal tools and ui_open.",
    'Take a screenshot before you act on the desktop and after any action whose result you need to see: the other desktop tools only answer OK.',
    "Answer questions about Sessionboxer itself from the sessionboxer server's `docs` tool, not from memory.",
    "When you record the desktop, mention the recording's path (stop_recording returns it) in your reply, so the chat shows the video.",
    ...guestLines(input.environment),
  ].join('\n\n');
}
