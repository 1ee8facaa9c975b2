import * as fs from 'node:fs';
import * as path from 'node:path';
import webpush from 'web-push';

/** A device's push subscription (the browser's PushSubscription.toJSON()). */
export interface PushSubscriptionRecord {
  userId: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

function writePrivate(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * The VAPID keys (made once) and the enrolled devices, in the data dir's secrets folder with
 * mode 0600: the subscription's auth secret and the private key never go into events or logs.
 */
export class PushStore {
  private readonly vapidFile: string;
  private readonly subscriptionsFile: string;
  private vapid: VapidKeys | null = null;

  constructor(dataDir: string) {
    this.vapidFile = path.join(dataDir, 'secrets', 'vapid.json');
    this.subscriptionsFile = path.join(dataDir, 'secrets', 'push-subscriptions.json');
  }

  keys(): VapidKeys {
    if (this.vapid) return this.vapid;
    if (fs.existsSync(this.vapidFile)) {
      this.vapid = JSON.parse(fs.readFileSync(this.vapidFile, 'utf8')) as VapidKeys;
    } else {
      this.vapid = webpush.generateVAPIDKeys();
      writePrivate(this.vapidFile, this.vapid);
    }
    return this.vapid;
  }

  all(): PushSubscriptionRecord[] {
    if (!fs.existsSync(this.subscriptionsFile)) return [];
    return JSON.parse(fs.readFileSync(this.subscriptionsFile, 'utf8')) as PushSubscriptionRecord[];
  }

  put(record: PushSubscriptionRecord): void {
    const rest = this.all().filter((s) => s.endpoint !== record.endpoint);
    writePrivate(this.subscriptionsFile, [...rest, record]);
  }

  /** Removes an endpoint (of `userId` only, when given); whether it was there. */
  remove(endpoint: string, userId?: string): boolean {
    const all = this.all();
    const rest = all.filter((s) => s.endpoint !== endpoint || (userId && s.userId !== userId));
    writePrivate(this.subscriptionsFile, rest);
    return rest.length < all.length;
  }
}
