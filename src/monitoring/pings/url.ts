// Ping URLs as the APIs show them (REST `ping_url`, GraphQL `pingUrl`, webhooks' $JSON):
// Healthchecks' PING_ENDPOINT followed by the check's UUID. The server answers pings at /ping/
// whatever the endpoint says; a separate ping host is a proxy's business.
import type { MonitoringSettings } from '../context.ts';

type PingSettings = Pick<MonitoringSettings, 'siteRoot' | 'pingEndpoint'>;

/** The base of ping URLs, ending in "/": PING_ENDPOINT, else `${SITE_ROOT}/ping/` (read each time: tests repoint siteRoot). */
export const pingEndpoint = (settings: PingSettings) => settings.pingEndpoint ?? `${settings.siteRoot}/ping/`;

export const pingUrl = (settings: PingSettings, code: string) => `${pingEndpoint(settings)}${code}`;
