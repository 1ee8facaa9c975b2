import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { findProjectRoot } from '../host';
import { type Kit, openKit, sh } from './box-test-kit';

/**
 * A private file inside the project a box sees read-only (the audit key beside a `./data`
 * dir) is hidden from every box, also when it was made after the driver opened (a first start
 * creates the key while the driver is already up).
 */
describe('private paths inside the project', () => {
  const name = `.sbx-private-${randomUUID()}`;
  const file = path.join(findProjectRoot(), name);
  let kit: Kit;

  beforeAll(async () => {
    kit = await openKit({ isolation: 'bubblewrap', privatePaths: [file] });
  });

  afterAll(async () => {
    await kit.close();
    rmSync(file, { force: true });
  });

  it('are not readable in a box started after they were made', async () => {
    // Readable by anyone on the host, so that only the mask keeps it from the box (a box of a
    // control plane that is not root reads the project as the control plane's own user).
    writeFileSync(file, 'the installation key', { mode: 0o644 });
    const { sessionId } = await kit.driver.create(kit.spec(['/usr/bin/sleep', 'infinity']));
    const r = await sh(
      kit.driver,
      sessionId,
      `ls -la /opt/sessionboxer/${name} 2>&1; cat /opt/sessionboxer/${name} 2>&1; echo "[$?]"`,
    );
    expect(r.stdout).not.toContain('the installation key');
    // Hidden behind /dev/null: a character device, which the read-only project mount will not
    // even open.
    expect(r.stdout).toMatch(/^crw/);
  });
});
