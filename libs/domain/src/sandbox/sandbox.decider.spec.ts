import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import type { SandboxCommand } from './sandbox.commands';
import { costCents } from './sandbox.cost';
import { defaultSandboxName, sandboxDecider } from './sandbox.decider';
import type { SandboxEvent } from './sandbox.events';
import { fold } from '../kernel';

const spec = DeciderSpecification.for(sandboxDecider);
const ID = '3f2a9c01-1111-4222-8333-444455556666';
const ORG = 'org-1';
const at = (h: number) => `2026-01-02T${String(h).padStart(2, '0')}:00:00.000Z`;

const create = (args: Record<string, unknown> = {}): SandboxCommand => ({
  type: 'CreateSandbox',
  data: { sandboxId: ID, orgId: ORG, args },
  metadata: meta(),
});
const cmd = (type: SandboxCommand['type'], data: Record<string, unknown> = {}, when = AT) =>
  ({ type, data: { sandboxId: ID, ...data }, metadata: meta({ at: when }) }) as SandboxCommand;

const created = (over: Record<string, unknown> = {}): SandboxEvent => ({
  type: 'SandboxCreated',
  data: {
    sandboxId: ID,
    orgId: ORG,
    name: 'sb-3f2a9c',
    size: 'small',
    secrets: [],
    environment: 'default',
    idleTimeoutSeconds: 0,
    stopWhenAgentsFinish: false,
    metadata: {},
    idempotencyKey: null,
    forkedFrom: null,
    at: AT,
    ...over,
  },
});
const started = (h = 3): SandboxEvent => ({
  type: 'SandboxStarted',
  data: { sandboxId: ID, at: at(h) },
});
const stopped = (h: number): SandboxEvent => ({
  type: 'SandboxStopped',
  data: { sandboxId: ID, reason: 'requested', at: at(h) },
});

describe('sandbox decider', () => {
  describe('none yet', () => {
    const given = spec.given([]);

    it('creates with the spec defaults: sb- and six hex of its id, small, default, no timeout', () => {
      expect(defaultSandboxName(ID)).toBe('sb-3f2a9c');
      given.when(create()).then([created()]);
    });

    it('keeps what is given, metadata keys in order', () => {
      const args = {
        name: 'web-1',
        size: 'xl',
        idle_timeout_seconds: 60,
        metadata: { z: '1', a: '2' },
      };
      given.when(create(args)).then([
        created({
          name: 'web-1',
          size: 'xl',
          idleTimeoutSeconds: 60,
          metadata: { a: '2', z: '1' },
        }),
      ]);
    });

    it.each([
      ['an upper-case name', { name: 'Web' }, /name must be 1–63 lower case/],
      ['a name with a space', { name: 'a b' }, /name must be/],
      ['a name ending in a dash', { name: 'a-' }, /name must be/],
      ['an unknown size', { size: 'huge' }, /size must be one of small, standard, large, xl/],
      ['an idle timeout of 59', { idle_timeout_seconds: 59 }, /idle_timeout_seconds must be 0/],
      ['an idle timeout past 7 days', { idle_timeout_seconds: 604801 }, /idle_timeout_seconds/],
      [
        '17 metadata keys',
        { metadata: Object.fromEntries([...Array(17).keys()].map((i) => [`k${i}`, 'v'])) },
        /at most 16 keys/,
      ],
      ['an upper-case metadata key', { metadata: { User: '1' } }, /key "User" must be 1–40/],
      ['a metadata key of 41', { metadata: { ['k'.repeat(41)]: '1' } }, /must be 1–40/],
      [
        'a metadata value of 257',
        { metadata: { u: 'x'.repeat(257) } },
        /metadata.u must be a string of at most 256/,
      ],
      ['a number as metadata value', { metadata: { u: 42 } }, /metadata.u must be a string/],
      ['a bad secret name', { secrets: ['a-b'] }, /secrets\[0\] must be a secret name/],
      [
        'a non-boolean flag',
        { stop_when_agents_finish: 'yes' },
        /stop_when_agents_finish must be true or false/,
      ],
      ['an unknown parameter', { cpu: 4 }, /unknown parameter cpu/],
    ])('refuses %s, naming the parameter', (_c, args, why) => {
      given.when(create(args)).thenThrows(ErrorCode.ValidationFailed, why);
    });

    it('knows no other command', () => {
      given
        .when(cmd('StopSandbox', { reason: 'requested' }))
        .thenThrows(ErrorCode.NotFound, /no sandbox/);
    });
  });

  describe('created with an idempotency key', () => {
    const given = spec.given([created({ idempotencyKey: 'k1' }), started()]);
    it('a retry with the key is the same sandbox, nothing new', () => {
      given.when(create({ idempotency_key: 'k1' })).thenNothing();
      given.when(create({ idempotency_key: 'k2' })).thenThrows(ErrorCode.AlreadyExists);
    });
  });

  describe('running', () => {
    const given = spec.given([created(), started()]);
    it('stops with a reason; resuming a running one is nothing', () => {
      given
        .when(cmd('StopSandbox', { reason: 'idle' }))
        .then([{ type: 'SandboxStopped', data: { sandboxId: ID, reason: 'idle', at: AT } }]);
      given.when(cmd('ResumeSandbox')).thenNothing();
    });
    it('updates what is given and keeps the rest; needs at least one', () => {
      given.when(cmd('UpdateSandbox', { args: { metadata: {} } })).then([
        {
          type: 'SandboxUpdated',
          data: {
            sandboxId: ID,
            idleTimeoutSeconds: 0,
            stopWhenAgentsFinish: false,
            metadata: {},
            at: AT,
          },
        },
      ]);
      given
        .when(cmd('UpdateSandbox', { args: {} }))
        .thenThrows(ErrorCode.ValidationFailed, /at least one/);
      given
        .when(cmd('UpdateSandbox', { args: { idle_timeout_seconds: 1 } }))
        .thenThrows(ErrorCode.ValidationFailed);
    });
  });

  describe('stopped', () => {
    const given = spec.given([created(), started(), stopped(5)]);
    it('stopping again succeeds with nothing; resume runs it again', () => {
      given.when(cmd('StopSandbox', { reason: 'requested' })).thenNothing();
      given
        .when(cmd('ResumeSandbox'))
        .then([{ type: 'SandboxResumed', data: { sandboxId: ID, at: AT } }]);
    });
  });

  describe('deleted', () => {
    const given = spec.given([
      created(),
      started(),
      { type: 'SandboxDestroyed', data: { sandboxId: ID, at: at(4) } },
    ]);
    it('refuses stop and resume as deleted; destroy again is nothing', () => {
      given
        .when(cmd('StopSandbox', { reason: 'requested' }))
        .thenThrows(ErrorCode.InvalidState, /deleted/);
      given.when(cmd('ResumeSandbox')).thenThrows(ErrorCode.InvalidState, /deleted/);
      given.when(cmd('DestroySandbox')).thenNothing();
    });
  });

  it('cost_cents: running hours × price plus stopped GiB-months × 6¢, by hand', () => {
    // standard: 10¢/h, 20 GiB. Runs 03→05 (2 h), stopped 05→17 (12 h), runs 17→18 (1 h), destroyed.
    const history: SandboxEvent[] = [
      created({ size: 'standard' }),
      started(3),
      stopped(5),
      { type: 'SandboxResumed', data: { sandboxId: ID, at: at(17) } },
      { type: 'SandboxDestroyed', data: { sandboxId: ID, at: at(18) } },
    ];
    const state = fold(sandboxDecider, history);
    // 3 h × 10¢ = 30¢; 12 h of 720 h × 20 GiB × 6¢ = 2¢.
    expect(costCents('standard', state.spend, '2026-02-01T00:00:00.000Z')).toBe(32);
    const running = fold(sandboxDecider, history.slice(0, 2));
    expect(costCents('standard', running.spend, at(4))).toBe(10);
  });
});
