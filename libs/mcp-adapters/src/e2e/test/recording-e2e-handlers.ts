import type { E2eCase, E2eCaseResult, E2ePort, E2eRun } from '../port';

/**
 * An E2ePort that answers with fixed data and records every call: the port's own contract in
 * a test, standing in for no outside service.
 */
export const RUN: E2eRun = {
  id: 'run-1',
  status: 'running',
  brief: 'Check the login form',
  cases: [{ index: 1, title: 'Log in', status: 'pending', attempts: [] }],
  verdict: null,
  video: null,
  summary: null,
  skipReason: null,
  openedAt: '2026-01-01T00:00:00.000Z',
  closedAt: null,
};

export interface E2eCall {
  method: keyof E2ePort;
  args: unknown[];
}

export class RecordingE2ePort implements E2ePort {
  readonly calls: E2eCall[] = [];

  private record(method: keyof E2ePort, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  private case(index: number, status: E2eCase['status']): E2eCase {
    return { index, title: `Case ${index}`, status, attempts: [] };
  }

  plan(cases: string[]) {
    this.record('plan', cases);
    return Promise.resolve(RUN);
  }
  skip(reason: string) {
    this.record('skip', reason);
    return Promise.resolve({ ...RUN, status: 'skipped' as const, skipReason: reason });
  }
  startCase(index: number) {
    this.record('startCase', index);
    return Promise.resolve(this.case(index, 'running'));
  }
  endCase(index: number, result: E2eCaseResult) {
    this.record('endCase', index, result);
    return Promise.resolve(this.case(index, result.status));
  }
  finish(result: { video: string | null; summary: string | null }) {
    this.record('finish', result);
    return Promise.resolve({
      ...RUN,
      status: 'passed' as const,
      verdict: 'passed' as const,
      ...result,
    });
  }
}
