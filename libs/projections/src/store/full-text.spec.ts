import type { Projection } from '../projection';
import { matchExpression, snippetParts } from './full-text';
import { SqliteReadModelStore } from './sqlite-read-model-store';

type Page = { title?: string; body?: string; hidden?: boolean };
const pages = (version = 1): Projection<Page> => ({
  name: 'pages',
  version,
  handles: [],
  apply: () => [],
  fullText: {
    columns: [
      { name: 'title', path: '$.title', weight: 5 },
      { name: 'body', path: '$.body' },
    ],
  },
});
const json = (doc: Page) => JSON.stringify(doc);
const ids = (store: SqliteReadModelStore, text: string, projection = pages()) =>
  store.search(projection, { text, limit: 10 }).map((h) => h.id);

describe('a projection’s full-text index', () => {
  let store: SqliteReadModelStore;
  beforeEach(() => {
    store = SqliteReadModelStore.open({ path: ':memory:' });
    store.register([pages()]);
  });
  afterEach(() => store.close());

  it('follows the documents: written, rewritten and deleted', () => {
    store.write('pages', [
      { id: 'a', json: json({ title: 'Quarterly report', body: 'numbers and graphs' }) },
      { id: 'b', json: json({ body: 'a report on the garden' }) },
    ]);
    expect(ids(store, 'report').sort()).toEqual(['a', 'b']);
    store.write('pages', [{ id: 'b', json: json({ body: 'roses only' }) }]);
    expect(ids(store, 'report')).toEqual(['a']);
    expect(ids(store, 'garden')).toEqual([]);
    expect(ids(store, 'roses')).toEqual(['b']);
    store.write('pages', [{ id: 'a', json: null }]);
    expect(ids(store, 'report')).toEqual([]);
    expect(() => store.search(pages(), { text: 'x', limit: 1 })).not.toThrow();
  });

  it('writes in the caller’s transaction: a rollback leaves the index as it was', () => {
    store.write('pages', [{ id: 'a', json: json({ body: 'kept words' }) }]);
    expect(() =>
      store.transaction(() => {
        store.write('pages', [{ id: 'a', json: json({ body: 'lost words' }) }]);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(ids(store, 'kept')).toEqual(['a']);
    expect(ids(store, 'lost')).toEqual([]);
  });

  it('ranks by bm25 with the columns’ weights and marks the match in the snippet', () => {
    store.write('pages', [
      { id: 'body', json: json({ body: 'something about otters in a long text' }) },
      { id: 'title', json: json({ title: 'Otters' }) },
    ]);
    const hits = store.search(pages(), { text: 'otter', limit: 10 });
    expect(hits.map((h) => h.id)).toEqual(['title', 'body']);
    expect(hits[1].snippet).toEqual([
      { text: 'something about ', match: false },
      { text: 'otters', match: true },
      { text: ' in a long text', match: false },
    ]);
    expect(hits[0].doc).toEqual({ title: 'Otters' });
  });

  it('reads what was typed as plain words, the last one a prefix, so no input is syntax', () => {
    store.write('pages', [
      { id: 'a', json: json({ body: 'NEAR the AND gate, "quoted" title:x' }) },
      { id: 'b', json: json({ body: 'alpha beta' }) },
    ]);
    for (const text of ['"', 'foo AND', 'NEAR(', '*', ')', '^', '-x', 'title:', "'", '\\']) {
      expect(() => store.search(pages(), { text, limit: 5 })).not.toThrow();
    }
    expect(ids(store, 'AND')).toEqual(['a']);
    expect(ids(store, 'near(')).toEqual(['a']);
    expect(ids(store, 'title:x')).toEqual(['a']);
    expect(ids(store, 'alp')).toEqual(['b']);
    expect(ids(store, 'alpha bet')).toEqual(['b']);
    expect(ids(store, 'alp bet')).toEqual([]);
    expect(ids(store, 'alpha gate')).toEqual([]);
    expect(ids(store, '""')).toEqual([]);
  });

  it('filters on a field and keeps to the limit', () => {
    store.write('pages', [
      { id: 'a', json: json({ body: 'shared', hidden: true }) },
      { id: 'b', json: json({ body: 'shared', hidden: false }) },
      { id: 'c', json: json({ body: 'shared' }) },
    ]);
    const where = [{ path: '$.hidden', equals: false }];
    expect(store.search(pages(), { text: 'shared', limit: 10, where }).map((h) => h.id)).toEqual([
      'b',
    ]);
    expect(store.search(pages(), { text: 'shared', limit: 2 })).toHaveLength(2);
    expect(() =>
      store.search(pages(), { text: 'x', limit: 1, where: [{ path: "$.a'", equals: 1 }] }),
    ).toThrow(/bad JSON path/);
  });

  it('is dropped and made again with the projection’s version, and a store without one refuses', () => {
    store.write('pages', [{ id: 'a', json: json({ body: 'old text' }) }]);
    store.register([pages(2)]);
    expect(ids(store, 'old', pages(2))).toEqual([]);
    store.write('pages', [{ id: 'a', json: json({ body: 'new text' }) }]);
    expect(ids(store, 'new', pages(2))).toEqual(['a']);
    const plain: Projection<Page> = { ...pages(), name: 'plain', fullText: undefined };
    store.register([plain]);
    expect(() => store.search(plain, { text: 'x', limit: 1 })).toThrow(/no fullText/);
  });

  it('builds the missing index of a projection registered before it had one', () => {
    const before: Projection<Page> = { ...pages(), name: 'later', fullText: undefined };
    store.register([before]);
    store.write('later', [{ id: 'a', json: json({ body: 'lost on purpose' }) }]);
    const after: Projection<Page> = { ...pages(), name: 'later' };
    expect(store.register([after])[0].position).toBe(-1);
    expect(store.count('later')).toBe(0);
  });
});

describe('matchExpression and snippetParts', () => {
  it('quotes every word and makes the last a prefix', () => {
    expect(matchExpression('foo AND "bar"')).toBe('"foo" "AND" "bar"*');
    expect(matchExpression('NEAR(a, b)')).toBe('"NEAR" "a" "b"*');
    expect(matchExpression('" * ( )')).toBeNull();
    expect(matchExpression('')).toBeNull();
    expect(matchExpression('Ünïcode wörds')).toBe('"Ünïcode" "wörds"*');
  });

  it('cuts a snippet at its marks', () => {
    expect(snippetParts('a \u0002b\u0003 c')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c', match: false },
    ]);
    expect(snippetParts(null)).toEqual([]);
  });
});
