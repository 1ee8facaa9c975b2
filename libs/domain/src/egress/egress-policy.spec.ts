import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import {
  DEFAULT_EGRESS_ALLOW_LIST,
  effectiveAllowList,
  egressPolicyDecider,
  egressPolicyStream,
  type EgressPolicyCommand,
} from './egress-policy';
import { egressLogDecider, egressStream } from './egress-log';

const spec = DeciderSpecification.for(egressPolicyDecider);
const S = '0b0e5c9e-1111-4111-8111-111111111111';
const cmd = (type: EgressPolicyCommand['type'], data: unknown) =>
  ({ type, data, metadata: meta() }) as EgressPolicyCommand;

describe('egress policy decider', () => {
  it('has a global stream and one per session', () => {
    expect(egressPolicyStream()).toBe('egresspolicy-global');
    expect(egressPolicyStream(S)).toBe(`egresspolicy-${S}`);
    expect(egressStream(S)).toBe(`egress-${S}`);
  });

  describe('never set', () => {
    const given = spec.given([]);
    it('sets the global list, normalised', () => {
      given
        .when(cmd('SetEgressPolicy', { allow: ['A.example:443', 'a.example:443'] }))
        .then([{ type: 'EgressPolicySet', data: { allow: ['a.example:443'], at: AT } }]);
    });
    it('refuses a bad entry and names it', () => {
      given
        .when(cmd('SetEgressPolicy', { allow: ['a.example'] }))
        .thenThrows(ErrorCode.ValidationFailed, /allow\[0\]/);
    });
    it('records a session override; inherit keeps no entries', () => {
      given
        .when(cmd('SetSessionEgress', { sessionId: S, mode: 'extend', allow: ['x.example:1'] }))
        .then([
          {
            type: 'SessionEgressSet',
            data: { sessionId: S, mode: 'extend', allow: ['x.example:1'], at: AT },
          },
        ]);
      given.when(cmd('SetSessionEgress', { sessionId: S, mode: 'inherit', allow: [] })).then([]);
      given
        .when(cmd('SetSessionEgress', { sessionId: S, mode: 'open', allow: [] }))
        .thenThrows(ErrorCode.ValidationFailed, /mode must be one of/);
    });
  });

  describe('set', () => {
    const given = spec.given([
      { type: 'EgressPolicySet', data: { allow: ['a.example:1'], at: AT } },
    ]);
    it('records nothing for the same list', () => {
      given.when(cmd('SetEgressPolicy', { allow: ['a.example:1'] })).then([]);
    });
  });

  it('puts the lists together: defaults, extend, replace', () => {
    expect(effectiveAllowList(null, null)).toEqual(DEFAULT_EGRESS_ALLOW_LIST);
    expect(effectiveAllowList(['a:1'], { mode: 'inherit', allow: [] })).toEqual(['a:1']);
    expect(effectiveAllowList(['a:1'], { mode: 'extend', allow: ['b:2', 'a:1'] })).toEqual([
      'a:1',
      'b:2',
    ]);
    expect(effectiveAllowList(['a:1'], { mode: 'replace', allow: ['b:2'] })).toEqual(['b:2']);
  });
});

describe('egress log decider', () => {
  const log = DeciderSpecification.for(egressLogDecider).given([]);
  it('records a refusal with its reason, and refuses a target it cannot read', () => {
    const data = { sessionId: S, host: 'evil.example', port: 443, allowed: false };
    log
      .when({
        type: 'RecordEgress',
        data: { ...data, code: 'not_allowed', reason: 'not on the allow list' },
        metadata: meta(),
      } as never)
      .then([
        {
          type: 'EgressRefused',
          data: {
            sessionId: S,
            host: 'evil.example',
            port: 443,
            code: 'not_allowed',
            reason: 'not on the allow list',
            at: AT,
          },
        },
      ]);
    log
      .when({
        type: 'RecordEgress',
        data: { ...data, host: 'a\nb', code: 'not_allowed', reason: 'x' },
        metadata: meta(),
      } as never)
      .thenThrows(ErrorCode.ValidationFailed, /one-line/);
  });
});
