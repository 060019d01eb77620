// The WebAuthn relying party is the site itself, as SITE_ROOT names it: credentials are bound to
// its hostname (no port: WebAuthn's RP ID is a domain) and answers must come from its origin.
import type { IdentitySettings } from '../context.ts';
import type { RelyingParty } from './webauthn.ts';

export function relyingParty(settings: Pick<IdentitySettings, 'siteRoot' | 'siteName'>): RelyingParty {
  const root = new URL(settings.siteRoot);
  return { id: root.hostname, name: settings.siteName, origin: root.origin };
}
