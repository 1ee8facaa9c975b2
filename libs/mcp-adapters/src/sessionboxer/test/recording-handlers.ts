import type { PrItem, PrSummary, SessionboxerPort, TerminalSummary, UiPane, WhoAmI } from '../port';
import type { ScheduleCreateArgs, ScheduleListing } from '../schedules.port';

/**
 * A SessionboxerPort that answers with fixed data and records every call: the port's own
 * contract in a test, standing in for no outside service.
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

export interface PortCall {
  method: keyof SessionboxerPort;
  args: unknown[];
}

export class RecordingPort implements SessionboxerPort {
  readonly calls: PortCall[] = [];
  settingsValue: Record<string, unknown> = { defaults: { provider: 'claude-code' } };

  private record(method: keyof SessionboxerPort, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  whoami() {
    this.record('whoami');
    return Promise.resolve(WHOAMI);
  }
  settings() {
    this.record('settings');
    return Promise.resolve(this.settingsValue);
  }
  setTitle(title: string) {
    this.record('setTitle', title);
    return Promise.resolve({ id: WHOAMI.id, title });
  }
  notify(text: string) {
    this.record('notify', text);
    return Promise.resolve({ ok: true as const });
  }
  snapshot() {
    this.record('snapshot');
    const at = '2026-01-01T00:00:00.000Z';
    return Promise.resolve({ id: 'snap-1', ordinal: 1, sizeBytes: 1024, createdAt: at });
  }
  attachPr(pr: { owner: string; repo: string; number: number }) {
    this.record('attachPr', pr);
    return Promise.resolve({ ...PR, ...pr, id: `${pr.owner}/${pr.repo}#${pr.number}` });
  }
  listPrs() {
    this.record('listPrs');
    return Promise.resolve([PR]);
  }
  prItems(prId: string) {
    this.record('prItems', prId);
    return Promise.resolve({ pr: PR, items: ITEMS });
  }
  markAddressed(prId: string, itemIds: string[]) {
    this.record('markAddressed', prId, itemIds);
    const items = ITEMS.map((i) => ({ ...i, addressed: itemIds.includes(i.id) }));
    return Promise.resolve({ pr: { ...PR, unaddressed: 0 }, items });
  }
  terminals() {
    this.record('terminals');
    return Promise.resolve(TERMINALS);
  }
  readTerminal(terminalId: string, lines: number) {
    this.record('readTerminal', terminalId, lines);
    return Promise.resolve({ id: terminalId, text: 'PASS 12 tests\n', exitCode: 0 });
  }
  openUi(pane: UiPane, terminal: { command: string } | null) {
    this.record('openUi', pane, terminal);
    const terminalId = terminal === null ? null : 'term-2';
    return Promise.resolve({ pane, terminalId, shown: true });
  }
  queueAdd(text: string) {
    this.record('queueAdd', text);
    return Promise.resolve({ id: 'prompt-1', position: 1 });
  }
  queueList() {
    this.record('queueList');
    const from = { kind: 'agent' as const, sessionId: WHOAMI.id };
    const prompt = { id: 'prompt-1', text: 'Now run the linter', position: 1, from };
    return Promise.resolve({ prompts: [{ ...prompt, queuedAt: '2026-01-01T00:00:00.000Z' }] });
  }
  verify(brief: string, cases: string[] | null) {
    this.record('verify', brief, cases);
    const planned = (cases ?? []).map((title, i) => ({
      index: i + 1,
      title,
      status: 'pending' as const,
    }));
    return Promise.resolve({
      id: 'run-1',
      status: cases ? ('running' as const) : ('open' as const),
      cases: planned,
    });
  }
  listSessions() {
    this.record('listSessions');
    return Promise.resolve([{ ...OTHER, self: false, mine: true }]);
  }
  getSession(session: string) {
    this.record('getSession', session);
    return Promise.resolve({ ...OTHER, self: false, mine: true, lastReply: 'All green.' });
  }
  createSession(args: { first_prompt: string; title?: string; provider?: string }) {
    this.record('createSession', args);
    return Promise.resolve({
      pending: false as const,
      sessionId: OTHER.id,
      title: OTHER.title,
      url: OTHER.url,
    });
  }
  messageSession(session: string, text: string, when: 'now' | 'queue') {
    this.record('messageSession', session, text, when);
    return Promise.resolve({ sessionId: OTHER.id, title: OTHER.title, delivery: 'prompted' });
  }
  waitSession(session: string, seconds: number) {
    this.record('waitSession', session, seconds);
    return Promise.resolve({
      sessionId: OTHER.id,
      title: OTHER.title,
      still_running: false,
      status: 'idle',
      lastReply: 'All green.',
    });
  }
  stopSession(session: string) {
    this.record('stopSession', session);
    return Promise.resolve({ sessionId: OTHER.id, title: OTHER.title, status: 'stopped' });
  }
  forkSession() {
    this.record('forkSession');
    return Promise.resolve({
      pending: false as const,
      sessionId: OTHER.id,
      title: 'Fork',
      url: OTHER.url,
      snapshotOrdinal: 2,
    });
  }
  waitApproval(id: string, seconds: number) {
    this.record('waitApproval', id, seconds);
    const summary = 'Claude Code wants to create a Session “Child”';
    return Promise.resolve({
      id,
      kind: 'session_create',
      summary,
      status: 'pending',
      expiresAt: '2026-01-01T00:10:00.000Z',
    });
  }
  createSchedule(args: ScheduleCreateArgs) {
    this.record('createSchedule', args);
    const { cron, timezone } = args;
    const name = args.name ?? 'Scheduled task';
    return Promise.resolve({ id: 'sch-1', name, cron, timezone, nextRunAt: NEXT_RUN });
  }
  listSchedules() {
    this.record('listSchedules');
    return Promise.resolve([SCHEDULE]);
  }
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
