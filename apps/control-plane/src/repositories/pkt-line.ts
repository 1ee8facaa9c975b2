/**
 * The command list at the start of a git-receive-pack request (pkt-line format: 4 hex digits
 * of length, the 4 included; `0000` flushes): `<old> <new> <ref>[\0<capabilities>]` per ref.
 */
export interface RefUpdate {
  oldId: string;
  newId: string;
  ref: string;
}

export type ReceivePackHead =
  | { complete: false }
  | { complete: true; updates: RefUpdate[]; capabilities: string[]; length: number }
  | { complete: true; error: string };

const UPDATE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (refs\/[^\0\n ]+)$/;

/** Reads the commands from the request's first bytes; `complete: false` asks for more. */
export function readReceivePackHead(buf: Buffer): ReceivePackHead {
  const updates: RefUpdate[] = [];
  let capabilities: string[] = [];
  let at = 0;
  for (;;) {
    if (buf.length < at + 4) return { complete: false };
    const hex = buf.toString('latin1', at, at + 4);
    if (!/^[0-9a-f]{4}$/.test(hex)) return { complete: true, error: 'not a pkt-line' };
    const size = Number.parseInt(hex, 16);
    if (size === 0) return { complete: true, updates, capabilities, length: at + 4 };
    if (size < 5) return { complete: true, error: `a pkt-line of length ${size}` };
    if (buf.length < at + size) return { complete: false };
    let line = buf.toString('utf8', at + 4, at + size);
    at += size;
    if (line.endsWith('\n')) line = line.slice(0, -1);
    if (line.startsWith('shallow ')) continue;
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      if (updates.length === 0)
        capabilities = line
          .slice(nul + 1)
          .split(' ')
          .filter(Boolean);
      line = line.slice(0, nul);
    }
    const m = UPDATE.exec(line);
    if (!m)
      return { complete: true, error: `not a ref update: ${JSON.stringify(line.slice(0, 200))}` };
    updates.push({ oldId: m[1], newId: m[2], ref: m[3] });
  }
}

export function pktLine(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

const FLUSH = Buffer.from('0000');

/**
 * A receive-pack result refusing every update with its reason, as git shows it
 * (` ! [remote rejected] main -> main (reason)`), plus `message` as a `remote:` line when the
 * client reads side bands.
 */
export function refusalReport(
  updates: readonly { ref: string; reason: string }[],
  capabilities: readonly string[],
  message: string,
): Buffer {
  const status = Buffer.concat([
    pktLine('unpack ok\n'),
    ...updates.map((u) => pktLine(`ng ${u.ref} ${u.reason}\n`)),
    FLUSH,
  ]);
  const banded = capabilities.includes('side-band-64k') || capabilities.includes('side-band');
  if (!banded) return status;
  return Buffer.concat([
    pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${message}\n`)])),
    pktLine(Buffer.concat([Buffer.from([1]), status])),
    FLUSH,
  ]);
}
