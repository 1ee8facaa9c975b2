import { isDomainError } from '../kernel';
import {
  conversationsCap,
  credentialSecrets,
  decideAgentPrompt,
  type AgentConversationFacts,
  type AgentPromptArgs,
} from './sandbox.agents';

const KEYED = { size: 'small' as const, secrets: ['ANTHROPIC_API_KEY'] };
const conv = (id: string, over: Partial<AgentConversationFacts> = {}): AgentConversationFacts => ({
  id,
  harness: 'claude-code',
  active: false,
  queued: 0,
  updatedAt: `2026-01-01T00:00:0${id.length}.000Z`,
  ...over,
});
const decide = (
  args: Partial<AgentPromptArgs>,
  all: AgentConversationFacts[] = [],
  sandbox: { size: 'small' | 'xl'; secrets: string[] } = KEYED,
) => decideAgentPrompt({ prompt: 'go', ...args }, sandbox, all, { scripted: false });

function codeOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (isDomainError(e)) return e.details?.code;
    throw e;
  }
  return 'no refusal';
}

describe('where a sandbox prompt goes', () => {
  it('starts a claude conversation when there is none, and continues the most recent', () => {
    expect(decide({})).toEqual({ conversationId: null, harness: 'claude', model: null });
    const all = [conv('a'), conv('bb')];
    expect(decide({}, all).conversationId).toBe('bb');
    expect(decide({ conversation: 'a' }, all).conversationId).toBe('a');
    expect(decide({ new: true }, all).conversationId).toBeNull();
  });

  it('starts a new conversation when the harness differs from the most recent', () => {
    const all = [conv('a', { harness: 'opencode' })];
    expect(decide({}, all)).toMatchObject({ conversationId: 'a', harness: 'opencode' });
    expect(decide({ harness: 'claude' }, all)).toMatchObject({ conversationId: null });
  });

  it('refuses with the spec codes', () => {
    const all = [conv('a')];
    expect(codeOf(() => decide({ harness: 'codex' }))).toBe('unknown_harness');
    expect(codeOf(() => decide({ harness: 'scripted' }))).toBe('unknown_harness');
    expect(codeOf(() => decide({ conversation: 'zz' }, all))).toBe('conversation_not_found');
    expect(codeOf(() => decide({ conversation: 'a', harness: 'opencode' }, all))).toBe(
      'harness_mismatch',
    );
    expect(codeOf(() => decide({ model: 'gpt-4o' }))).toBe('unknown_model');
    expect(codeOf(() => decide({ harness: 'opencode', model: 'sonnet' }))).toBe('unknown_model');
    expect(codeOf(() => decide({}, [], { size: 'small', secrets: [] }))).toBe(
      'credentials_missing',
    );
    expect(codeOf(() => decide({ conversation: 'a', new: true }, all))).toBe('invalid_argument');
  });

  it('takes Claude aliases and full names, OpenCode provider/model', () => {
    expect(decide({ model: 'opus' }).model).toBe('opus');
    expect(decide({ model: 'claude-sonnet-4-5' }).model).toBe('claude-sonnet-4-5');
    const oc = { size: 'small' as const, secrets: [] };
    expect(decide({ harness: 'opencode', model: 'opencode/grok-code' }, [], oc).model).toBe(
      'opencode/grok-code',
    );
    expect(credentialSecrets('opencode', 'anthropic/claude-sonnet-4-5')).toEqual([
      'ANTHROPIC_API_KEY',
    ]);
  });

  it('runs one conversation per GiB at a time; a running one still queues', () => {
    expect(['small', 'standard', 'large', 'xl'].map((s) => conversationsCap(s as 'xl'))).toEqual([
      2, 4, 8, 16,
    ]);
    const busy = [conv('a', { active: true }), conv('bb', { active: true }), conv('ccc')];
    expect(codeOf(() => decide({ new: true }, busy))).toBe('too_many_turns');
    expect(codeOf(() => decide({ conversation: 'ccc' }, busy))).toBe('too_many_turns');
    expect(decide({ conversation: 'a' }, busy).conversationId).toBe('a');
    expect(decide({ new: true }, busy, { size: 'xl', secrets: KEYED.secrets }).conversationId).toBe(
      null,
    );
    expect(codeOf(() => decide({ conversation: 'a' }, [conv('a', { queued: 100 })]))).toBe(
      'too_many_turns',
    );
  });
});
