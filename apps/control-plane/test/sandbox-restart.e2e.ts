import { tempDataDir } from './harness';
import { call, makeKey, mcpClient } from './sandbox-kit';
import { startApp } from './harness';

/** A sandbox outlives its control plane: after a restart its files are there and exec works. */
it('a running sandbox answers after a restart, with its files; a stopped one resumes', async () => {
  const dataDir = tempDataDir();
  const env = { SESSIONBOXER_BOXES: 'off' };
  let api = await startApp(dataDir, env);
  const { key } = await makeKey(api);
  let client = await mcpClient(api, key);
  await call(client, 'sandbox_create', { name: 'keeps' });
  await call(client, 'sandbox_create', { name: 'sleeps' });
  await call(client, 'sandbox_write_file', {
    sandbox: 'keeps',
    path: '/root/k.txt',
    content: 'kept',
  });
  await call(client, 'sandbox_write_file', {
    sandbox: 'sleeps',
    path: '/workspace/s.txt',
    content: 'slept',
  });
  await call(client, 'sandbox_stop', { sandbox: 'sleeps' });
  await client.close();
  await api.close();

  api = await startApp(dataDir, env);
  try {
    client = await mcpClient(api, key);
    expect(
      (await call(client, 'sandbox_exec', { sandbox: 'keeps', command: 'cat /root/k.txt' })).body,
    ).toMatchObject({ exit_code: 0, stdout: 'kept' });
    expect((await call(client, 'sandbox_resume', { sandbox: 'sleeps' })).body.status).toBe(
      'running',
    );
    expect(
      (await call(client, 'sandbox_read_file', { sandbox: 'sleeps', path: '/workspace/s.txt' }))
        .body.content,
    ).toBe('slept');
    for (const name of ['keeps', 'sleeps'])
      await call(client, 'sandbox_destroy', { sandbox: name });
    await client.close();
  } finally {
    await api.close();
  }
});
