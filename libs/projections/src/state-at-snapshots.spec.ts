import { StateAtSnapshots, type StateAtSnapshot } from './state-at-snapshots';

function snap(position: number, latest = position): StateAtSnapshot {
  const recordedAt = new Date(latest).toISOString();
  return { position, recordedAt, latest, session: { status: 'absent' }, image: Buffer.alloc(10) };
}

describe('StateAtSnapshots', () => {
  it('gives the last snapshot before a position, or a time all its events precede', () => {
    const kept = new StateAtSnapshots(1000);
    kept.keep('s', snap(2000, 5000));
    kept.keep('s', snap(1000));
    expect(kept.before('s', { position: 999 })).toBeNull();
    expect(kept.before('s', { position: 1999 })?.position).toBe(1000);
    expect(kept.before('s', { position: 2000 })?.position).toBe(2000);
    // An event up to 2000 was recorded at 5000: before that time only 1000's fold holds.
    expect(kept.before('s', { time: 4999 })?.position).toBe(1000);
    expect(kept.before('other', { position: 9999 })).toBeNull();
  });

  it('drops the least recently used session’s oldest snapshots past the byte budget', () => {
    const kept = new StateAtSnapshots(1000, 30);
    kept.keep('a', snap(1000));
    kept.keep('a', snap(2000));
    kept.keep('b', snap(1000));
    kept.before('a', { position: 5000 });
    kept.keep('b', snap(2000));
    expect(kept.before('b', { position: 1500 })?.position).toBe(1000);
    expect(kept.before('a', { position: 1500 })).toBeNull();
    expect(kept.before('a', { position: 2500 })?.position).toBe(2000);
  });
});
