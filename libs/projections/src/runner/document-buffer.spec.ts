import type { Projection } from '../projection';
import { SqliteReadModelStore } from '../store/sqlite-read-model-store';
import { DocumentBuffer, UnserialisableDocument } from './document-buffer';

const docs: Projection<{ v: number }> = {
  name: 'docs',
  version: 1,
  handles: [],
  apply: () => [],
};

describe('DocumentBuffer', () => {
  let store: SqliteReadModelStore;
  let buffer: DocumentBuffer;
  const stored = () => [...store.scan('docs')];

  beforeEach(() => {
    store = SqliteReadModelStore.open({ path: ':memory:' });
    store.register([docs]);
    store.write('docs', [{ id: 'a', partition: 'p', order: 1, json: '{"v":1}' }]);
    buffer = new DocumentBuffer(store);
  });
  afterEach(() => store.close());

  it('serves its own changes to later reads and writes each document once, as last changed', () => {
    expect(buffer.get(docs, 'a')).toEqual({ v: 1 });
    buffer.change('docs', { id: 'a', doc: { v: 2 } });
    buffer.change('docs', { id: 'a', doc: { v: 3 } });
    buffer.change('docs', { id: 'b', partition: 'q', order: 5, doc: { v: 1 } });
    expect([buffer.get(docs, 'a'), buffer.get(docs, 'b')]).toEqual([{ v: 3 }, { v: 1 }]);
    expect(stored().map((d) => d.doc)).toEqual([{ v: 1 }]);
    const write = jest.spyOn(store, 'write');
    buffer.flush();
    expect(write.mock.calls.flatMap(([, changes]) => changes.map((c) => c.id))).toEqual(['a', 'b']);
    expect(stored()).toEqual([
      { id: 'a', partition: 'p', order: 1, doc: { v: 3 } },
      { id: 'b', partition: 'q', order: 5, doc: { v: 1 } },
    ]);
  });

  it('keeps the last partition and order given, else the stored ones, as one write after another would', () => {
    expect(buffer.get(docs, 'a')).toEqual({ v: 1 });
    buffer.change('docs', { id: 'a', partition: 'r', doc: { v: 2 } });
    buffer.change('docs', { id: 'a', order: 9, doc: { v: 3 } });
    buffer.change('docs', { id: 'a', doc: { v: 4 } });
    buffer.flush();
    expect(stored()).toEqual([{ id: 'a', partition: 'r', order: 9, doc: { v: 4 } }]);
  });

  it('deletes, and a document deleted then written again starts anew', () => {
    buffer.change('docs', { id: 'a', doc: null });
    expect(buffer.get(docs, 'a')).toBeNull();
    buffer.change('docs', { id: 'a', doc: { v: 7 } });
    buffer.change('docs', { id: 'b', partition: 'q', order: 2, doc: { v: 1 } });
    buffer.change('docs', { id: 'b', doc: null });
    buffer.flush();
    expect(stored()).toEqual([{ id: 'a', partition: '', order: 0, doc: { v: 7 } }]);
  });

  it('writes nothing when a document will not serialise', () => {
    buffer.change('docs', { id: 'a', doc: { v: 2 } });
    buffer.change('docs', { id: 'x', doc: { v: 10n } });
    expect(() => buffer.flush()).toThrow(UnserialisableDocument);
    expect(stored().map((d) => d.doc)).toEqual([{ v: 1 }]);
  });
});
