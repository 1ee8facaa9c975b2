import type { WhoAmI } from '@sessionboxer/mcp-adapters';
import type { RecordingHandlers } from '@sessionboxer/mcp-adapters/kit/test/recording-handlers';
import {
  sessionboxerDouble,
  WHOAMI,
} from '@sessionboxer/mcp-adapters/sessionboxer/test/recording-handlers';

/**
 * The control plane's side of the sessionboxer tools for the scripted harness's tests: the
 * double generated from the registry, with one session held in memory that whoami reads and
 * title_set renames.
 */
export class InMemorySession {
  readonly double: RecordingHandlers;

  constructor(public session: Pick<WhoAmI, 'id' | 'title' | 'environment'>) {
    this.double = sessionboxerDouble({
      whoami: () => {
        // The shared test session, as this one is now (the tests read title and environment).
        const url = `http://127.0.0.1:8080/sessions/${this.session.id}`;
        return { ...WHOAMI, ...this.session, url, provider: 'scripted' };
      },
      title_set: ({ title }: { title: string }) => {
        this.session = { ...this.session, title };
        return { id: this.session.id, title };
      },
    });
  }
}
