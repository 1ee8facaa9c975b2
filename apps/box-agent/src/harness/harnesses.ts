import type { HarnessName } from '@sessionboxer/domain';
import { claudeCodeHarness } from './claude-code';
import type { HarnessAdapter } from './harness.port';
import { openCodeHarness } from './opencode';
import { scriptedHarness } from './scripted/scripted';

/** Every harness the box can run a turn with, by the name the conversation records. */
export const harnessAdapters: Readonly<Record<HarnessName, HarnessAdapter>> = {
  'claude-code': claudeCodeHarness,
  opencode: openCodeHarness,
  scripted: scriptedHarness,
};
