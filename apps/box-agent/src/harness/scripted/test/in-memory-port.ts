import type { SessionboxerPort, WhoAmI } from '@sessionboxer/mcp-adapters';

/**
 * A test double of the control plane's SessionboxerPort: one session held in memory, answering
 * whoami and title_set; every other tool rejects, as these tests never call it.
 */
export class InMemorySessionboxerPort implements SessionboxerPort {
  constructor(public session: Pick<WhoAmI, 'id' | 'title' | 'environment'>) {}

  whoami(): Promise<WhoAmI> {
    return Promise.resolve({
      ...this.session,
      url: `http://127.0.0.1:8080/sessions/${this.session.id}`,
      provider: 'scripted',
      model: 'default',
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
      terminals: [],
      prs: [],
      verification: null,
      repos: [],
    });
  }

  setTitle(title: string): Promise<{ id: string; title: string }> {
    this.session = { ...this.session, title };
    return Promise.resolve({ id: this.session.id, title });
  }

  private unused(): Promise<never> {
    return Promise.reject(new Error('not used by the scripted harness tests'));
  }

  settings = () => this.unused();
  notify = () => this.unused();
  snapshot = () => this.unused();
  attachPr = () => this.unused();
  listPrs = () => this.unused();
  prItems = () => this.unused();
  markAddressed = () => this.unused();
  terminals = () => this.unused();
  readTerminal = () => this.unused();
  openUi = () => this.unused();
  queueAdd = () => this.unused();
  queueList = () => this.unused();
  verify = () => this.unused();
  listSessions = () => this.unused();
  getSession = () => this.unused();
  createSession = () => this.unused();
  messageSession = () => this.unused();
  waitSession = () => this.unused();
  stopSession = () => this.unused();
  waitApproval = () => this.unused();
  forkSession = () => this.unused();
  createSchedule = () => this.unused();
  listSchedules = () => this.unused();
}
