// A signed-in person's dashboard: the project switcher (the chosen project in ?project=<uuid>),
// the project's screens (checks, members, keys, audit log; #/… in the address) and the account
// settings. One live connection serves every project: it carries the session cookie, and each
// subscription names its project.
import { useEffect, useState } from 'preact/hooks';
import { LiveBadge } from '../components/Status.tsx';
import { messageOf, RequestError } from '../lib/graphql.ts';
import { useHash, useProjectParam } from '../lib/route.ts';
import { useLive, useLiveState } from '../lib/use-live.ts';
import type { AccountState } from '../account/state.ts';
import { Settings } from '../account/Settings.tsx';
import { openSession, type Session } from '../dashboard/session.ts';
import { ChecksScreen } from '../checks/ChecksScreen.tsx';
import { lazyScreen } from '../lib/lazy.tsx';
import { hashPath, type ScreenProps } from '../lib/screen.ts';
import { CreateProject } from './CreateProject.tsx';
import { Switcher } from './Switcher.tsx';
import { mayManage } from './roles.ts';

// The checks list is the first screen; the others load when visited.
const IntegrationsScreen = lazyScreen<ScreenProps, typeof import('../integrations/IntegrationsScreen.tsx')>(() => import('../integrations/IntegrationsScreen.tsx'), 'IntegrationsScreen');
const ProjectSettings = lazyScreen<ScreenProps, typeof import('./ProjectSettings.tsx')>(() => import('./ProjectSettings.tsx'), 'ProjectSettings');
const CampusScreen = lazyScreen<ScreenProps, typeof import('../campus/CampusScreen.tsx')>(() => import('../campus/CampusScreen.tsx'), 'CampusScreen');
type MembersProps = Parameters<typeof import('./Members.tsx').Members>[0];
const Members = lazyScreen<MembersProps, typeof import('./Members.tsx')>(() => import('./Members.tsx'), 'Members');
type SessionOnly = { session: Session };
const Keys = lazyScreen<SessionOnly, typeof import('./Keys.tsx')>(() => import('./Keys.tsx'), 'Keys');
const AuditLog = lazyScreen<SessionOnly, typeof import('./AuditLog.tsx')>(() => import('./AuditLog.tsx'), 'AuditLog');

export function ProjectApp({ account }: { account: AccountState }) {
  const { viewer } = account;
  const [param, chooseProject] = useProjectParam();
  const hash = useHash();
  const live = useLive(null);
  const liveState = useLiveState(live);
  const chosen = viewer.projects.find((m) => m.project.uuid === param) ?? viewer.projects[0] ?? null;
  const uuid = chosen?.project.uuid ?? null;

  // A missing or stale ?project= (a project left, a link from another account) names the first.
  useEffect(() => {
    if (uuid && uuid !== param) chooseProject(uuid, 'replace');
  }, [uuid, param]);

  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setSession(null);
    setError(null);
    if (!uuid) return;
    let active = true;
    openSession(null, uuid).then(
      (opened) => active && setSession(opened),
      (err: unknown) => {
        if (!active) return;
        setError(messageOf(err));
        // Signed out elsewhere, or no longer a member: the viewer, read again, says where to go.
        if (err instanceof RequestError && (err.code === 'UNAUTHENTICATED' || err.code === 'NOT_FOUND')) void account.refresh().catch(() => {});
      },
    );
    return () => {
      active = false;
    };
    // The role is part of the session: a changed role (read again with the viewer) reopens it.
  }, [uuid, chosen?.role]);

  const created = async (project: string) => {
    await account.refresh();
    chooseProject(project);
  };

  const screen = hashPath(hash)[0] ?? '';
  const refused = () => void account.refresh().catch(() => {});
  let body;
  if (screen === 'settings') body = <Settings account={account} />;
  else if (screen === 'new-project' || !chosen) body = <CreateProject first={!chosen} onCreated={created} />;
  else if (error) body = <p class="error" role="alert">{error}</p>;
  else if (!session) body = <p>Loading…</p>;
  else if (screen === 'members') body = <Members session={session} account={account} onLeft={async () => { await account.refresh(); location.hash = ''; }} />;
  else if (screen === 'keys' && mayManage(session.role)) body = <Keys session={session} />;
  else if (screen === 'audit' && mayManage(session.role)) body = <AuditLog session={session} />;
  else if (screen === 'integrations') body = <IntegrationsScreen session={session} live={live} account={account} onRefused={refused} />;
  else if (screen === 'project') body = <ProjectSettings session={session} live={live} account={account} onRefused={refused} />;
  else if (screen === 'campus') body = <CampusScreen session={session} live={live} account={account} onRefused={refused} />;
  else body = <ChecksScreen session={session} live={live} account={account} onRefused={refused} />;

  const link = (href: string, label: string, current: boolean) => (
    <a href={href} aria-current={current ? 'page' : undefined}>{label}</a>
  );
  return (
    <>
      <header class="bar">
        {chosen ? (
          <Switcher memberships={viewer.projects} chosen={chosen.project.uuid} onChoose={(p) => chooseProject(p)} />
        ) : (
          <span class="brand">Cron &amp; Campus Gateway</span>
        )}
        {chosen && (
          <nav class="tabs" aria-label="Project screens">
            {link('#', 'Checks', screen === '' || screen === 'checks')}
            {link('#/integrations', 'Integrations', screen === 'integrations')}
            {link('#/campus', 'Campus records', screen === 'campus')}
            {link('#/project', 'Project settings', screen === 'project')}
            {link('#/members', 'Members', screen === 'members')}
            {session && mayManage(session.role) && link('#/keys', 'API keys', screen === 'keys')}
            {session && mayManage(session.role) && link('#/audit', 'Audit log', screen === 'audit')}
            {link('#/new-project', 'New project', screen === 'new-project')}
          </nav>
        )}
        <LiveBadge state={liveState} />
        {session && <span class="hint" data-role={session.role}>{session.role.toLowerCase()}</span>}
        <a href="#/settings" title="Account settings" aria-current={screen === 'settings' ? 'page' : undefined}>{viewer.username}</a>
        <button type="button" class="link" onClick={() => void account.signOut()}>Sign out</button>
      </header>
      <main>{body}</main>
    </>
  );
}
