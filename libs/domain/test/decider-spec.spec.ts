import { DomainError, ErrorCode, type Command, type Decider, type DomainEvent } from '../src';
import { DeciderSpecification } from './decider-spec';
import { meta } from './session-fixtures';

// The helper must fail a test whose decider does something else, or it proves nothing.
type Inc = Command<'Inc', { by: number }>;
type Incremented = DomainEvent<'Incremented', { by: number }>;
const counter: Decider<Inc, Incremented, number> = {
  decide: (c, n) => {
    if (n + c.data.by > 2) throw new DomainError(ErrorCode.LimitReached, 'at most 2');
    return c.data.by === 0 ? [] : [{ type: 'Incremented', data: { by: c.data.by } }];
  },
  evolve: (n, e) => n + e.data.by,
  initialState: 0,
};
const spec = DeciderSpecification.for(counter);
const inc = (by: number): Inc => ({ type: 'Inc', data: { by }, metadata: meta() });
const one: Incremented = { type: 'Incremented', data: { by: 1 } };

describe('DeciderSpecification', () => {
  it('passes when the decider agrees', () => {
    spec.given([one]).when(inc(1)).then([one]);
    spec.given([one, one]).when(inc(1)).thenThrows(ErrorCode.LimitReached, 'at most 2');
    spec.given([]).when(inc(0)).thenNothing();
  });

  it('fails on other events, a refusal not made, another code or message, or an event', () => {
    expect(() => spec.given([]).when(inc(1)).then([])).toThrow();
    expect(() => spec.given([]).when(inc(1)).thenThrows(ErrorCode.LimitReached)).toThrow(
      /accepted and decided/,
    );
    expect(() => spec.given([one, one]).when(inc(1)).thenThrows(ErrorCode.NotFound)).toThrow();
    expect(() =>
      spec.given([one, one]).when(inc(1)).thenThrows(ErrorCode.LimitReached, /x/),
    ).toThrow();
    expect(() => spec.given([]).when(inc(1)).thenNothing()).toThrow();
  });
});
