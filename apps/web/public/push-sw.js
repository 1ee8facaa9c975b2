// Sessionboxer's service worker: shows an inbox item pushed by the control plane (Web Push),
// and opens its session when the notification is clicked.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' ? data.title : 'Sessionboxer';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.itemId === 'string' ? data.itemId : undefined,
      data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/inbox' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/inbox';
  event.waitUntil(self.clients.openWindow(url));
});
