import type { SessionboxerPort, WhoAmI } from '@sessionboxer/mcp-adapters';
import { WHOAMI } from '@sessionboxer/mcp-adapters/sessionboxer/test/recording-port';

/**
 * A test double of the control plane's SessionboxerPort: one session held in memory, answering
 * whoami and title_set; every other tool rejects, as these tests never call it.
 */
export class InMemorySessionboxerPort implements SessionboxerPort {
  constructor(public session: Pick<WhoAmI, 'id' | 'title' | 'environment'>) {}

  whoami(): Promise<WhoAmI> {
    // The shared test session, as this one is now (the scripted tests read title and environment).
    const url = `http://127.0.0.1:8080/sessions/${this.session.id}`;
    return Promise.resolve({ ...WHOAMI, ...this.session, url, provider: 'scripted' });
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
