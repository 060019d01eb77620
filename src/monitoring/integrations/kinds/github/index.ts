// GitHub (Healthchecks' "github"): an issue in a repository for each down alert (up sends
// nothing: is_noop). The value is Healthchecks' JSON (the app installation, the repository, the
// labels); the issue is opened as the operator's GitHub App (GITHUB_CLIENT_ID and
// GITHUB_PRIVATE_KEY), without which the kind is off.
import { defineChannelKind } from '../definition.ts';
import { githubConf, githubConfig } from './config.ts';

export const github = defineChannelKind({
  kind: 'github',
  label: 'GitHub',
  validateValue: (value) => void githubConf(value),
  config: githubConfig,
  notifies: () => ({ down: true, up: false }),
  enabled: (settings) => settings.github !== null,
  requires: 'GITHUB_CLIENT_ID and GITHUB_PRIVATE_KEY',
  transport: async () => (await import('./transport.ts')).githubTransport,
});
