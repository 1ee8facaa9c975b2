import { RecordingHandlers, type Answer } from '../../kit/test/recording-handlers';
import type { PrItem, PrSummary, TerminalSummary, UiPane, WhoAmI } from '../port';
import { controlPlaneTools, parseControlPlaneCall } from '../registry';
import type { ScheduleCreateArgs, ScheduleListing } from '../schedules.port';

/**
 * Handlers for every tool the control plane answers, generated from the registry: each records
 * the arguments its parser produced and answers fixed data in the spec's shape. It stands in
 * for no outside service; a new tool gets one at once (answering that it has no fixture).
 */
export const PR: PrSummary = {
  id: 'octo-org/api#12',
  owner: 'octo-org',
  repo: 'api',
  number: 12,
  url: 'https://github.com/octo-org/api/pull/12',
  title: 'Add retries',
  state: 'open',
  checks: { passed: 3, failed: 1, pending: 0 },
  unaddressed: 2,
};

export const ITEMS: PrItem[] = [
  {
    id: 'c1',
    kind: 'review_comment',
    author: 'reviewer',
    body: 'Please add a test',
    path: 'src/retry.ts',
    line: 10,
    conclusion: null,
    url: 'https://github.com/octo-org/api/pull/12#discussion_r1',
    createdAt: '2026-01-01T00:00:00.000Z',
    addressed: false,
  },
];

export const TERMINALS: TerminalSummary[] = [
  { id: 'term-1', createdAt: '2026-01-01T00:00:00.000Z', exitCode: null },
];

export const WHOAMI: WhoAmI = {
  id: '3f2a0000-0000-4000-8000-000000000001',
  title: 'Backend tests',
  url: 'http://127.0.0.1:8080/sessions/3f2a0000-0000-4000-8000-000000000001',
  provider: 'claude-code',
  model: 'default',
  environment: 'docker-linux',
  guest: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  forkedFrom: null,
  createdBy: null,
  branch: null,
  snapshotCount: 0,
  sessionboxerVersion: '0.1.0',
  agentTools: 'session',
  status: 'running',
  usage: null,
  context: null,
  queueLength: 0,
  panes: ['transcript'],
  terminals: TERMINALS,
  prs: [PR],
  verification: null,
  repos: [{ name: 'api', path: '/workspace/api' }],
};

const AT = '2026-01-01T00:00:00.000Z';
const SELF = { kind: 'agent' as const, sessionId: WHOAMI.id };

/** What each tool answers, by name. */
export const ANSWERS: Record<string, Answer> = {
  whoami: () => WHOAMI,
  settings_get: () => ({ defaults: { provider: 'claude-code' } }),
  title_set: ({ title }: { title: string }) => ({ id: WHOAMI.id, title }),
  notify: () => ({ ok: true }),
  snapshot: () => ({ id: 'snap-1', ordinal: 1, sizeBytes: 1024, createdAt: AT }),
  pr_attach: () => PR,
  pr_list: () => [PR],
  pr_items: () => ({ pr: PR, items: ITEMS }),
  pr_mark_addressed: ({ itemIds }: { itemIds: string[] }) => ({
    pr: { ...PR, unaddressed: 0 },
    items: ITEMS.map((i) => ({ ...i, addressed: itemIds.includes(i.id) })),
  }),
  terminal_list: () => TERMINALS,
  terminal_read: ({ id }: { id: string }) => ({ id, text: 'PASS 12 tests\n', exitCode: 0 }),
  ui_open: ({ pane, terminal }: { pane: UiPane; terminal?: object }) => ({
    pane,
    terminalId: terminal === undefined ? null : 'term-2',
    shown: true,
  }),
  queue_add: () => ({ id: 'prompt-1', position: 1 }),
  queue_list: () => ({
    prompts: [
      { id: 'prompt-1', text: 'Now run the linter', position: 1, queuedAt: AT, from: SELF },
    ],
  }),
  verify: ({ cases }: { cases?: string[] }) => ({
    id: 'run-1',
    status: cases ? 'running' : 'open',
    cases: (cases ?? []).map((title, i) => ({ index: i + 1, title, status: 'pending' })),
  }),
  sessions_list: () => [{ ...OTHER, self: false, mine: true }],
  session_get: () => ({ ...OTHER, self: false, mine: true, lastReply: 'All green.' }),
  session_create: () => ({
    pending: false,
    sessionId: OTHER.id,
    title: OTHER.title,
    url: OTHER.url,
  }),
  session_message: () => ({ sessionId: OTHER.id, title: OTHER.title, delivery: 'prompted' }),
  session_wait: () => ({
    sessionId: OTHER.id,
    title: OTHER.title,
    still_running: false,
    status: 'idle',
    lastReply: 'All green.',
  }),
  session_stop: () => ({ sessionId: OTHER.id, title: OTHER.title, status: 'stopped' }),
  session_fork: () => ({
    pending: false,
    sessionId: OTHER.id,
    title: 'Fork',
    url: OTHER.url,
    snapshotOrdinal: 2,
  }),
  approval_wait: ({ id }: { id: string }) => ({
    id,
    kind: 'session_create',
    summary: 'Claude Code wants to create a Session “Child”',
    status: 'pending',
    expiresAt: '2026-01-01T00:10:00.000Z',
  }),
  schedule_create: (args: ScheduleCreateArgs) => ({
    id: 'sch-1',
    name: args.name ?? 'Scheduled task',
    cron: args.cron,
    timezone: args.timezone,
    nextRunAt: NEXT_RUN,
  }),
  schedule_list: () => [SCHEDULE],
};

/** The double of every tool the control plane answers; `overrides` replace some answers. */
export function sessionboxerDouble(overrides: Record<string, Answer> = {}): RecordingHandlers {
  const answers = { ...ANSWERS, ...overrides };
  return new RecordingHandlers(
    'sessionboxer tool',
    controlPlaneTools,
    parseControlPlaneCall,
    answers,
    WHOAMI.id,
  );
}

export const NEXT_RUN = '2026-01-02T09:00:00.000Z';

/** One schedule, as schedule_list answers it. */
export const SCHEDULE: ScheduleListing = {
  id: 'sch-1',
  name: 'Nightly report',
  cron: '0 9 * * 1-5',
  timezone: 'Europe/Paris',
  enabled: true,
  action: { type: 'prompt', sessionId: WHOAMI.id, text: 'Run the nightly report' },
  nextRunAt: NEXT_RUN,
  lastRunAt: null,
};

/** Another session, as the Other sessions tools see it. */
export const OTHER = {
  id: '5f2b8c1e-0000-4000-8000-000000000002',
  title: 'Child',
  url: 'http://127.0.0.1:8080/sessions/5f2b8c1e-0000-4000-8000-000000000002',
  status: 'idle',
  provider: 'claude-code',
  environment: 'docker-linux',
  repos: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: { sessionId: WHOAMI.id, title: WHOAMI.title },
  forkedFrom: null,
  queueLength: 0,
};
