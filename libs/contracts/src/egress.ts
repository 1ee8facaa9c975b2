import type { SessionEgressMode } from '@sessionboxer/domain';

/** `GET/PUT /api/settings/egress`: what every box may reach (Global settings → Egress). */
export interface EgressPolicyView {
  /** `host:port` and `*.suffix:port` entries. */
  allow: string[];
  /** True while nobody has set the list: `allow` is then the defaults. */
  isDefault: boolean;
  defaults: string[];
}

/** `GET/PUT /api/sessions/:id/egress`: a session's own list and the one in force. */
export interface SessionEgressView {
  sessionId: string;
  mode: SessionEgressMode;
  allow: string[];
  effective: string[];
}

/** One row of `GET /api/sessions/:id/egress/hosts`: a host the session's box connected to. */
export interface EgressHostView {
  /** `host:port` as the box asked for it. */
  target: string;
  count: number;
  lastAt: string;
}
