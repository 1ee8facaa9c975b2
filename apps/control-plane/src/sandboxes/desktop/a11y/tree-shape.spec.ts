import { convert } from './ax-convert';
import { frameOwners, pageLayout, viewportOrigin, type Snapshot } from './page-layout';
import { shapeTree, type SourceNode } from './tree-shape';

const node = (over: Partial<SourceNode<string>>, ...children: SourceNode<string>[]) => ({
  role: 'generic',
  name: '',
  states: [],
  bounds: null,
  actions: [],
  hidden: false,
  handle: over.name ?? 'h',
  ...over,
  children,
});
const opts = { depth: 60, includeHidden: false, max: 4000, firstRef: 1 };

describe('the answer of sandbox_accessibility_tree', () => {
  it('leaves out nodes with no name, text or action: their children take their place', () => {
    const app = node(
      { role: 'application', name: 'chromium' },
      node({}, node({ role: 'button', name: 'Go', actions: ['press'] })),
      node({ role: 'textbox', text: '' }),
    );
    const { answer, refs } = shapeTree([app], opts);
    expect(answer).toEqual({
      apps: ['chromium'],
      truncated: false,
      nodes: [
        {
          ref: 'n1',
          role: 'application',
          name: 'chromium',
          states: [],
          bounds: null,
          actions: [],
          children: [
            { ref: 'n2', role: 'button', name: 'Go', states: [], bounds: null, actions: ['press'] },
            {
              ref: 'n3',
              role: 'textbox',
              name: '',
              states: [],
              bounds: null,
              actions: [],
              text: '',
            },
          ],
        },
      ],
    });
    expect([...refs.keys()]).toEqual(['n1', 'n2', 'n3']);
  });

  it('off-screen nodes only with include_hidden; depth counts the answer’s levels', () => {
    const app = node(
      { role: 'application', name: 'a' },
      node({ name: 'far', hidden: true }, node({ name: 'deep' })),
    );
    const names = (o: Partial<typeof opts>) =>
      JSON.stringify(shapeTree([app], { ...opts, ...o }).answer.nodes).match(/"name":"\w+"/g);
    expect(names({})).toEqual(['"name":"a"', '"name":"deep"']);
    expect(names({ includeHidden: true })).toEqual(['"name":"a"', '"name":"far"', '"name":"deep"']);
    expect(names({ includeHidden: true, depth: 2 })).toEqual(['"name":"a"', '"name":"far"']);
    expect(names({ depth: 1 })).toEqual(['"name":"a"']);
  });

  it('is truncated past max nodes; refs go on from firstRef', () => {
    const many = Array.from({ length: 4100 }, (_, i) => node({ name: `b${i}` }));
    const shaped = shapeTree([node({ role: 'application', name: 'a' }, ...many)], {
      ...opts,
      firstRef: 50,
    });
    expect(shaped.answer.truncated).toBe(true);
    expect(shaped.refs.size).toBe(4000);
    expect(shaped.answer.nodes[0].ref).toBe('n50');
    expect(shaped.nextRef).toBe(4050);
  });
});

describe('Chromium nodes', () => {
  it('a field has its text and set-text; a button press; ignored nodes nothing', () => {
    const field = convert({
      nodeId: '3',
      ignored: false,
      role: { type: 'role', value: 'textbox' },
      name: { type: 'computedString', value: 'Your name' },
      value: { type: 'string', value: 'Ada' },
      properties: [
        { name: 'focusable', value: { type: 'booleanOrUndefined', value: true } },
        { name: 'focused', value: { type: 'booleanOrUndefined', value: true } },
        { name: 'editable', value: { type: 'token', value: 'plaintext' } },
        { name: 'invalid', value: { type: 'token', value: 'false' } },
      ],
    });
    expect(field).toMatchObject({
      role: 'textbox',
      text: 'Ada',
      actions: ['focus', 'set-text'],
      states: ['focusable', 'focused', 'editable'],
    });
    const off = convert({
      nodeId: '4',
      ignored: false,
      role: { type: 'role', value: 'button' },
      properties: [{ name: 'disabled', value: { type: 'boolean', value: true } }],
    });
    expect([off.actions, off.states]).toEqual([[], ['disabled']]);
    expect(convert({ nodeId: '5', ignored: true, role: { type: 'role', value: 'none' } })).toEqual(
      expect.objectContaining({ name: '', actions: [] }),
    );
    expect(
      convert({ nodeId: '1', ignored: false, role: { type: 'internalRole', value: 'RootWebArea' } })
        .role,
    ).toBe('document');
  });

  it('places a frame’s nodes at its iframe’s box, less scroll, clipped by it', () => {
    const snap: Snapshot = {
      strings: ['main', 'child'],
      documents: [
        {
          frameId: 0,
          scrollOffsetY: 50,
          nodes: { backendNodeId: [1, 2], contentDocumentIndex: { index: [1], value: [1] } },
          layout: {
            nodeIndex: [0, 1],
            bounds: [
              [0, 0, 800, 3000],
              [400, 300, 300, 200],
            ],
          },
        },
        {
          frameId: 1,
          nodes: { backendNodeId: [3, 4] },
          layout: {
            nodeIndex: [0, 1],
            bounds: [
              [10, 20, 100, 30],
              [10, 500, 100, 30],
            ],
          },
        },
      ],
    };
    expect(frameOwners(snap)).toEqual(new Map([['child', 2]]));
    const { nodes } = pageLayout(
      snap,
      { width: 800, height: 600 },
      new Map([[2, [402, 252, 296, 196]]]),
    );
    expect(nodes.get(2)).toEqual({ rect: [400, 250, 300, 200], visible: true });
    expect(nodes.get(3)).toEqual({ rect: [412, 272, 100, 30], visible: true });
    expect(nodes.get(4)?.visible).toBe(false);
    const m = {
      screenX: 0,
      screenY: 0,
      outerWidth: 1279,
      outerHeight: 799,
      innerWidth: 1279,
      innerHeight: 712,
      devicePixelRatio: 1,
      visible: true,
    };
    expect(viewportOrigin(m)).toEqual({ x: 0, y: 87, scale: 1 });
  });
});
