import { PATCH_MARK, parseDiff } from './diff-parse';
import { readReceivePackHead, pktLine } from './pkt-line';

const raw = (status: string, ...paths: string[]) =>
  [`:100644 100644 1111111 2222222 ${status}`, ...paths].join('\0');

describe('parseDiff (git diff --raw --numstat -z, then the patch)', () => {
  it('reads each file with its status, counts and patch, renames and binaries included', () => {
    const summary = [
      raw('M', 'a.txt'),
      raw('R087', 'old name.txt', 'new name.txt'),
      raw('D', 'gone.bin'),
      '2\t1\ta.txt',
      '0\t0\t',
      'old name.txt',
      'new name.txt',
      '-\t-\tgone.bin',
      '',
    ].join('\0');
    const patch =
      'diff --git a/a.txt b/a.txt\n+x\ndiff --git a/old name.txt b/new name.txt\nrename\n' +
      'diff --git a/gone.bin b/gone.bin\nBinary files differ\n';
    const files = parseDiff(summary + PATCH_MARK + patch, 5);
    expect(files).toEqual([
      {
        path: 'a.txt',
        oldPath: null,
        status: 'modified',
        additions: 2,
        deletions: 1,
        patch: 'diff ',
        patchTruncated: true,
      },
      expect.objectContaining({
        path: 'new name.txt',
        oldPath: 'old name.txt',
        status: 'renamed',
        additions: 0,
      }),
      expect.objectContaining({
        path: 'gone.bin',
        status: 'deleted',
        additions: null,
        deletions: null,
      }),
    ]);
  });

  it('is empty for no changes', () => {
    expect(parseDiff(PATCH_MARK, 100)).toEqual([]);
  });
});

describe('readReceivePackHead (the ref updates of a push)', () => {
  const zero = '0'.repeat(40);
  const one = '1'.repeat(40);

  it('reads the updates and the first line’s capabilities up to the flush', () => {
    const head = Buffer.concat([
      pktLine(`${zero} ${one} refs/heads/main\0report-status side-band-64k\n`),
      pktLine(`${one} ${zero} refs/heads/old\n`),
      Buffer.from('0000PACK…'),
    ]);
    expect(readReceivePackHead(head)).toEqual({
      complete: true,
      capabilities: ['report-status', 'side-band-64k'],
      updates: [
        { oldId: zero, newId: one, ref: 'refs/heads/main' },
        { oldId: one, newId: zero, ref: 'refs/heads/old' },
      ],
      length: head.length - 'PACK…'.length - 2,
    });
  });

  it('asks for more until the list is complete, and refuses what is no push', () => {
    expect(readReceivePackHead(pktLine(`${zero} ${one} refs/heads/x\n`))).toEqual({
      complete: false,
    });
    expect(readReceivePackHead(Buffer.from('00'))).toEqual({ complete: false });
    expect(readReceivePackHead(Buffer.from('zzzz'))).toMatchObject({ error: 'not a pkt-line' });
    expect(readReceivePackHead(pktLine('hello\n'))).toMatchObject({ error: /not a ref update/ });
  });
});
