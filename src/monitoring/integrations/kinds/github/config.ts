// GitHub's channel value as Healthchecks stores it (GitHubConf): {"installation_id": <the app
// installation's id>, "repo": "owner/name", "labels": ["…"]}.
import { validationError } from '../../../../shared/errors.ts';
import { intField, jsonObject, stringField } from '../shared/json-value.ts';
import { pythonJson } from '../shared/python-json.ts';
import type { ChannelConfigHooks } from '../definition.ts';

export interface GitHubConf {
  installationId: number;
  repo: string;
  labels: string[];
}

const FORM = 'value must be {"installation_id": <number>, "repo": "owner/name", "labels": ["…"]}';

export function githubConf(value: string): GitHubConf {
  const doc = jsonObject(value);
  if (!doc) throw validationError(FORM);
  const installationId = intField(doc, 'installation_id');
  if (installationId === undefined || installationId <= 0) throw validationError('installation_id must be a whole number (the GitHub App installation’s id)');
  const repo = stringField(doc, 'repo');
  // The path of /repos/<owner>/<name>/issues: one "/", no other path or query characters.
  if (repo === undefined || !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw validationError('repo must be "owner/name"');
  // Healthchecks' form: repo_name CharField(max_length=500).
  if (repo.length > 500) throw validationError(`repo: Ensure this value has at most 500 characters (it has ${repo.length}).`);
  const labels = doc.labels;
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string')) throw validationError('labels must be a list of texts (may be empty)');
  return { installationId, repo, labels: labels as string[] };
}

/** What `config` takes: the installation and repository; no labels: none. */
export type GitHubForm = Omit<GitHubConf, 'labels'> & { labels?: string[] };

/** The add view's json.dumps({"installation_id", "repo", "labels"}); labels trimmed, blanks dropped (get_labels). */
export const githubConfig: ChannelConfigHooks<GitHubConf, GitHubForm> = {
  read: githubConf,
  value: (conf) =>
    pythonJson({ installation_id: conf.installationId, repo: conf.repo, labels: (conf.labels ?? []).map((l) => l.trim()).filter((l) => l !== '') }),
};
