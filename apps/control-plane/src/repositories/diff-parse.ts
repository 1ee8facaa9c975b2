import type { DiffFile, DiffFileStatus } from '@sessionboxer/contracts';

/** Between the `--raw --numstat -z` part and the patch part of the box's diff output. */
export const PATCH_MARK = '\0SESSIONBOXER-PATCH\0';

const STATUS: Record<string, DiffFileStatus> = {
  A: 'added',
  M: 'modified',
  T: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'added',
};

/**
 * Parses `git diff --raw --numstat -z -M` followed by PATCH_MARK and the same diff's patch
 * (same options, so the files come in the same order) into one entry per file.
 */
export function parseDiff(output: string, patchCap: number): DiffFile[] {
  const mark = output.indexOf(PATCH_MARK);
  const summary = mark < 0 ? output : output.slice(0, mark);
  const patchText = mark < 0 ? '' : output.slice(mark + PATCH_MARK.length);
  const t = summary.split('\0');
  const files: DiffFile[] = [];
  let i = 0;
  while (i < t.length && t[i].startsWith(':')) {
    const letter = t[i].split(' ')[4]?.charAt(0) ?? 'M';
    const moved = letter === 'R' || letter === 'C';
    const oldPath = moved ? t[i + 1] : null;
    const path = moved ? t[i + 2] : t[i + 1];
    const status = STATUS[letter] ?? 'modified';
    files.push({ path, oldPath: letter === 'R' ? oldPath : null, status, ...EMPTY });
    i += moved ? 3 : 2;
  }
  for (const file of files) {
    if (i >= t.length || t[i] === '') break;
    const [add, del, inline] = t[i].split('\t');
    i += inline === '' ? 3 : 1;
    file.additions = add === '-' ? null : Number(add);
    file.deletions = del === '-' ? null : Number(del);
  }
  patches(patchText).forEach((patch, n) => {
    const file = files[n];
    if (!file) return;
    file.patchTruncated = patch.length > patchCap;
    file.patch = file.patchTruncated ? patch.slice(0, patchCap) : patch;
  });
  return files;
}

const EMPTY = { additions: 0, deletions: 0, patch: '', patchTruncated: false } as const;

function patches(text: string): string[] {
  if (text.trim() === '') return [];
  const starts: number[] = [];
  const re = /^diff --git /gm;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index);
  return starts.map((s, k) => text.slice(s, starts[k + 1] ?? text.length));
}
