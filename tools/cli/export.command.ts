/**
 * `export`: the whole history, or one session's events (and its family's), as an audit bundle
 * (libs/event-store/src/chain/bundle.ts), redacted with `--redact`. The same scope and
 * redaction as GET /api/sessions/:id/export (apps/control-plane/src/audit/export-scope.ts).
 */
import * as fs from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import {
  CHECKPOINT_STREAM,
  exportBundle,
  loadOrCreateAuditKey,
  type BundleManifest,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import { exportRedaction, sessionSelection } from '../../apps/control-plane/src/audit/export-scope';
import { FileCredentialVault } from '../../apps/control-plane/src/settings/credentials/credential-vault';
import { maskSecrets } from '../../apps/control-plane/src/settings/credentials/secret-masker';
import { ProgressBar } from './progress';
import { chainOf } from './verify.command';

export interface ExportRequest {
  out: string;
  keyFile: string;
  dataDir: string;
  session: string | null;
  family: boolean;
  redact: boolean;
}

/** Writes the bundle to `out` (0600), its head and manifest signed with the key when it is there. */
export async function exportCommand(store: EventStore, r: ExportRequest): Promise<BundleManifest> {
  const chain = chainOf(store);
  const key =
    fs.existsSync(r.keyFile) && !r.keyFile.endsWith('.pub')
      ? loadOrCreateAuditKey(r.keyFile)
      : null;
  const [last] = await store.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  let redact: ReturnType<typeof exportRedaction> | undefined;
  if (r.redact) {
    const secrets = new FileCredentialVault(r.dataDir).values();
    redact = exportRedaction((value) => maskSecrets(value, secrets));
  }
  const sink = fs.createWriteStream(r.out, { mode: 0o600 });
  const bar = new ProgressBar('exporting');
  const write = (line: string): Promise<void> =>
    sink.write(line) ? Promise.resolve() : new Promise((resolve) => sink.once('drain', resolve));
  let ok = false;
  try {
    const manifest = await exportBundle(
      chain,
      key,
      last ? (last.data as CheckpointData) : null,
      write,
      {
        scope: { session: r.session, family: r.family, redacted: r.redact },
        select: r.session ? sessionSelection(r.session, r.family) : undefined,
        redact,
        onProgress: (d, t) => bar.update(d, t),
      },
    );
    ok = true;
    return manifest;
  } finally {
    bar.done();
    await new Promise<void>((resolve, reject) =>
      sink.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
    // A bundle cut short would not verify: nothing is left behind.
    if (!ok) fs.rmSync(r.out, { force: true });
  }
}

export function formatExport(m: BundleManifest, out: string): string {
  const signed = m.head
    ? `signed up to position ${m.head.position}`
    : 'unsigned (no key, no checkpoint)';
  const hidden = m.scope?.redacted ? `, ${m.hiddenValues ?? 0} values hidden` : '';
  return `${m.events} events written to ${out} (${m.leftOut ?? 0} others by digest${hidden}), ${signed}`;
}
