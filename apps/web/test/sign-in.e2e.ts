import { checkPage, credentialsOf, fillSignIn, sidebar } from './browser-kit';
import { useControlPlane } from './session-kit';

/** docs/web-ui.md "Signing in": the real form, the real account, the real cookie. */
describe('signing in to the web UI', () => {
  const plane = useControlPlane({ browserPerTest: true });

  it('answers 401 to /api/sessions without a sign-in', async () => {
    const res = await fetch(plane.api.url + '/api/sessions');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
  });

  it('shows an alert for a wrong password and the app for the right one', async () => {
    const { api } = plane;
    // The browser, not signed in: this test signs in itself.
    const kit = await plane.browser();
    const { page } = kit;
    const { username, password } = credentialsOf(api);
    await page.goto(api.url + '/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkPage(page, 'sign-in');

    await fillSignIn(page, username, `${password}-wrong`);
    const alert = page.getByRole('alert').filter({ hasText: 'Wrong user name or password' });
    await alert.waitFor();
    await checkPage(page, 'sign-in-wrong-password');
    expect(await sidebar(page).count()).toBe(0);

    await fillSignIn(page, username, password);
    await sidebar(page).waitFor();
    // An empty tree has no height: it is there, not visible.
    await sidebar(page).getByRole('tree').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'New session' }).waitFor();
    await checkPage(page, 'app-signed-in');

    // The cookie signs the page's own requests in; the same request without it does not.
    const me = await page.evaluate(async () => {
      const r = await fetch('/api/auth/me');
      return { status: r.status, body: (await r.json()) as unknown };
    });
    expect(me).toEqual({ status: 200, body: { username } });
    const cookies = await kit.context.cookies(api.url);
    expect(cookies.find((c) => c.name === 'sb_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });

    // Still signed in after a reload (the cookie, not the page's memory).
    await page.reload();
    await sidebar(page).waitFor();
  });
});
