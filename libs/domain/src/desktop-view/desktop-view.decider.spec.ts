import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import {
  DESKTOP_VIEWS_MAX,
  desktopViewDecider,
  type DesktopViewCommand,
  type DesktopViewEvent,
} from './desktop-view.decider';

const spec = DeciderSpecification.for(desktopViewDecider);
const V1 = '11111111-1111-4111-8111-111111111111';
const open = (viewId: string, control = false, actor = meta().actor) =>
  ({
    type: 'OpenDesktopView',
    data: { target: 'session', targetId: 's1', viewId, control },
    metadata: meta({ actor }),
  }) as DesktopViewCommand;
const close = (viewId: string, reason = 'closed') =>
  ({ type: 'CloseDesktopView', data: { viewId, reason }, metadata: meta() }) as DesktopViewCommand;
const opened = (viewId: string, control = false): DesktopViewEvent => ({
  type: 'DesktopViewOpened',
  data: { target: 'session', targetId: 's1', viewId, control, by: 'ada', at: AT },
});

describe('desktop view decider', () => {
  it("records a sandbox token's view as its key's, with the token's id", () => {
    const T = '22222222-2222-4222-8222-222222222222';
    spec
      .given([])
      .when({
        type: 'OpenDesktopView',
        data: { target: 'sandbox', targetId: 'b1', viewId: V1, control: false, tokenId: T },
        metadata: meta({ actor: { kind: 'api-key', keyId: 'k1', orgId: 'o1' } }),
      })
      .then([
        {
          type: 'DesktopViewOpened',
          data: {
            target: 'sandbox',
            targetId: 'b1',
            viewId: V1,
            control: false,
            by: 'api-key:k1',
            tokenId: T,
            at: AT,
          },
        },
      ]);
  });

  it('records who watched and who took control, from the connection, and when it ended', () => {
    spec
      .given([])
      .when(open(V1, true))
      .then([opened(V1, true)]);
    spec
      .given([opened(V1)])
      .when(open(V1))
      .then([]);
    spec
      .given([opened(V1)])
      .when(close(V1, 'box_gone'))
      .then([{ type: 'DesktopViewClosed', data: { viewId: V1, reason: 'box_gone', at: AT } }]);
    spec.given([]).when(close(V1)).then([]);
  });

  it('refuses a caller that is not a person, a bad reason, and one view too many', () => {
    spec
      .given([])
      .when(open(V1, false, { kind: 'agent', sessionId: 's1' }))
      .thenThrows(ErrorCode.Forbidden, /person/);
    const key = { kind: 'api-key', keyId: 'k1', orgId: 'o1' } as const;
    spec
      .given([])
      .when(open(V1, false, key))
      .thenThrows(ErrorCode.Forbidden, /sandbox token/);
    spec
      .given([opened(V1)])
      .when(close(V1, 'bored'))
      .thenThrows(ErrorCode.ValidationFailed, /reason/);
    const full = Array.from({ length: DESKTOP_VIEWS_MAX }, (_, i) => opened(`view-${i}`));
    spec
      .given(full)
      .when(open(V1))
      .thenThrows(ErrorCode.LimitReached, /live views/);
  });
});
