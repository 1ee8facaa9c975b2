import type { EgressLogEvent } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import { ProjectionSpecification } from '../test/projection-spec';
import { egressHostQueries, egressHostsProjection } from './egress-hosts.projection';
import { egressMarkers } from './egress-markers';

const S = '0b0e5c9e-1111-4111-8111-111111111111';
const T = '0b0e5c9e-2222-4222-8222-222222222222';
const at = (s: number) => `2026-01-02T03:04:0${s}.000Z`;

function events(list: EgressLogEvent[]): RecordedEvent[] {
  return list.map((e, i): RecordedEvent => ({
    id: `e-${i}`,
    type: e.type,
    data: e.data,
    metadata: {
      commandId: `c-${i}`,
      correlationId: `c-${i}`,
      causationId: `c-${i}`,
      at: e.data.at,
      actor: { kind: 'system', id: 'egress' },
    },
    streamName: `egress-${e.data.sessionId}`,
    revision: i,
    position: i + 1,
    recordedAt: e.data.at,
  }));
}
const allowed = (sessionId: string, host: string, port: number, s: number): EgressLogEvent => ({
  type: 'EgressAllowed',
  data: { sessionId, host, port, address: '203.0.113.7', at: at(s) },
});
const refused: EgressLogEvent = {
  type: 'EgressRefused',
  data: {
    sessionId: S,
    host: 'evil.example',
    port: 443,
    code: 'not_allowed',
    reason: 'evil.example:443 is not on the allow list',
    at: at(9),
  },
};

describe('egress hosts read model', () => {
  it('counts each host:port per session with when it was last reached; refusals are not counted', () => {
    ProjectionSpecification.for(egressHostsProjection)
      .given(
        events([
          allowed(S, 'registry.npmjs.org', 443, 1),
          allowed(S, 'github.com', 443, 2),
          allowed(T, 'github.com', 443, 3),
          allowed(S, 'registry.npmjs.org', 443, 4),
          refused,
        ]),
      )
      .thenQuery(
        (r) => [egressHostQueries(r).list(S), egressHostQueries(r).list(T)],
        [
          [
            { target: 'registry.npmjs.org:443', count: 2, lastAt: at(4) },
            { target: 'github.com:443', count: 1, lastAt: at(2) },
          ],
          [{ target: 'github.com:443', count: 1, lastAt: at(3) }],
        ],
      );
  });
});

describe('egress markers', () => {
  it('says which connection was blocked and why, in the session transcript', () => {
    const [change] = egressMarkers(events([refused])[0]);
    expect(change.partition).toBe(S);
    expect(change.doc).toMatchObject({
      kind: 'egress-refused',
      text: 'blocked a connection to evil.example:443: evil.example:443 is not on the allow list',
    });
    expect(egressMarkers(events([allowed(S, 'github.com', 443, 1)])[0])).toEqual([]);
  });
});
