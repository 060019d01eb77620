// The project's settings (#/project): its name, public status page, repeat alerts, ping log
// limit and badges. Who may change what is the server's rule, read from the role it answers:
// owners and managers rename the project and set the ping log limit; everyone but read-only
// members changes the status page and repeat alerts; everyone sees the values and the badges.
import { useEffect, useState } from 'preact/hooks';
import { messageOf, query, RequestError } from '../lib/graphql.ts';
import type { ScreenProps } from '../lib/screen.ts';
import { PROJECT_SETTINGS, type ProjectSettingsData } from './operations.ts';
import { mayManage } from './roles.ts';
import { NagPeriodForm, PingLogLimitForm } from './settings/Alerts.tsx';
import { BadgesSection } from './settings/Badges.tsx';
import { NameSection } from './settings/Name.tsx';
import { StatusPageSection } from './settings/StatusPage.tsx';

export function ProjectSettings({ session, account, onRefused }: ScreenProps) {
  const project = session.project!;
  const [data, setData] = useState<ProjectSettingsData | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    setData(null);
    setError(null);
    query(PROJECT_SETTINGS, { project }).then(
      (answer) => active && setData(answer.project),
      (err: unknown) => {
        if (!active) return;
        setError(messageOf(err));
        if (err instanceof RequestError && (err.code === 'UNAUTHENTICATED' || err.code === 'NOT_FOUND')) onRefused();
      },
    );
    return () => {
      active = false;
    };
    // A changed role (the session reopened) may change what this person can do here.
  }, [project, session.role]);

  const patch = (change: Partial<ProjectSettingsData>) => setData((d) => d && { ...d, ...change });

  if (error) return <section><h1>Project settings</h1><p class="error" role="alert">{error}</p></section>;
  if (!data) return <section><h1>Project settings</h1><p>Loading…</p></section>;

  const manager = mayManage(data.role);
  const writer = data.role !== 'READONLY';
  return (
    <section class="project-settings">
      <h1>Project settings</h1>
      {!writer && <p class="hint">You are a read-only member here: you see the settings; the owner and managers change them.</p>}
      {writer && !manager && <p class="hint">The owner and managers rename the project and set the ping log limit; you see them.</p>}
      <NameSection
        project={project}
        name={data.name}
        mayRename={manager}
        onRefused={onRefused}
        onRenamed={async (name) => {
          patch({ name });
          // The switcher lists the viewer's projects by name: read them again.
          await account.refresh();
        }}
      />
      <StatusPageSection project={project} projectName={data.name} statusPage={data.statusPage ?? null} mayChange={writer} onRefused={onRefused} onChanged={(statusPage) => patch({ statusPage })} />
      <section aria-labelledby="settings-alerts">
        <h2 id="settings-alerts">Repeat alerts and ping log</h2>
        <div class="settings-pair">
          <NagPeriodForm project={project} nagPeriod={data.nagPeriod ?? null} mayChange={writer} onRefused={onRefused} onChanged={(nagPeriod) => patch({ nagPeriod })} />
          <PingLogLimitForm project={project} pingLogLimit={data.pingLogLimit} mayChange={manager} onRefused={onRefused} onChanged={(pingLogLimit) => patch({ pingLogLimit })} />
        </div>
      </section>
      <BadgesSection badges={data.badges} />
    </section>
  );
}
