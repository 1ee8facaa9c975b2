import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import { inboxDecider, type InboxCommand, type InboxEvent } from './inbox.decider';

const spec = DeciderSpecification.for(inboxDecider);
const mark = (itemIds: unknown, actor = meta().actor) =>
  ({ type: 'MarkInboxItemsRead', data: { itemIds }, metadata: meta({ actor }) }) as InboxCommand;
const readEvent = (itemIds: string[]): InboxEvent => ({
  type: 'InboxItemsRead',
  data: { userId: 'ada', itemIds, at: AT },
});

describe('inbox decider', () => {
  it('records the items the connection’s person read, once each', () => {
    spec
      .given([])
      .when(mark(['approval:a1', 'approval:a1']))
      .then([readEvent(['approval:a1'])]);
    spec
      .given([readEvent(['approval:a1'])])
      .when(mark(['approval:a1', 'notification:n1']))
      .then([readEvent(['notification:n1'])]);
    spec
      .given([readEvent(['approval:a1'])])
      .when(mark(['approval:a1']))
      .then([]);
  });
  it('refuses bad ids and a caller that is not a person', () => {
    spec
      .given([])
      .when(mark('x'))
      .thenThrows(ErrorCode.ValidationFailed, /itemIds/);
    spec
      .given([])
      .when(mark(['a b']))
      .thenThrows(ErrorCode.ValidationFailed, /itemIds\[0\]/);
    spec
      .given([])
      .when(mark(['a'], { kind: 'agent', sessionId: 's1' }))
      .thenThrows(ErrorCode.Forbidden, /person/);
  });
});
