// Healthchecks' GitHub transport: an installation token for the channel's installation, then
// POST /repos/<repo>/issues with the title, body and labels. No token (the installation is gone)
// is "GitHub denied access to <repo>"; a 410 (issues turned off, the repository gone) fails for
// good, as Healthchecks disables such a channel; other refusals are retried.
import { postJson } from '../shared/incident.ts';
import { DeliveryError, type Transport } from '../shared/transport.ts';
import { installationToken } from './app-token.ts';
import { githubConf } from './config.ts';
import { githubBody, githubTitle } from './message.ts';

export const githubTransport: Transport = {
  async send(d) {
    if (!d.settings.github) throw new DeliveryError('GitHub notifications are not enabled.', true);
    // Up alerts are not queued (notifies); a reminder or test of "up" has nothing to send either.
    if (d.status !== 'down') return;
    const conf = githubConf(d.channel.value);
    const token = await installationToken(d, conf.installationId);
    if (token === null) throw new DeliveryError(`GitHub denied access to ${conf.repo}`);
    await postJson(d, {
      url: `https://api.github.com/repos/${conf.repo}/issues`,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json' },
      body: { title: githubTitle(d), body: await githubBody(d), labels: conf.labels },
      permanentStatuses: [410],
    });
  },
};
