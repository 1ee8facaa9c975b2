import { EMPTY_ID_SET, idSetAdd, idSetHas, idSetSize } from './id-set';

describe('IdSet', () => {
  it('holds what was added, once, across chunks, and leaves older sets as they were', () => {
    let set = EMPTY_ID_SET;
    const states = [set];
    for (let i = 0; i < 600; i++) {
      set = idSetAdd(set, `n${i}`);
      states.push(set);
    }
    expect(idSetSize(set)).toBe(600);
    expect(set.chunks.length).toBe(3);
    expect(idSetHas(set, 'n0') && idSetHas(set, 'n599')).toBe(true);
    expect(idSetHas(set, 'n600')).toBe(false);
    expect(idSetAdd(set, 'n300')).toBe(set);
    // Persistent: the state after 10 ids still has exactly those.
    expect(idSetSize(states[10])).toBe(10);
    expect(idSetHas(states[10], 'n10')).toBe(false);
    expect(idSetHas(states[300], 'n299') && !idSetHas(states[300], 'n300')).toBe(true);
  });
});
