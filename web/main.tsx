// The browser entry: /status/<slug> is a public status page; /invite/, /reset/, /sign-in/ and
// /verify/<token> are the pages emailed links open; everything else is the dashboard.
import { render } from 'preact';
import { App } from './App.tsx';
import { Invitation } from './account/Invitation.tsx';
import { LinkSignIn, ResetPassword, VerifyEmail } from './account/LinkPages.tsx';
import { StatusPageView } from './status/StatusPageView.tsx';
import './styles.css';

const LINK_PAGES = { invite: Invitation, reset: ResetPassword, 'sign-in': LinkSignIn, verify: VerifyEmail } as const;

function page() {
  const status = /^\/status\/([^/]+)\/?$/.exec(location.pathname);
  if (status) return <StatusPageView slug={decodeURIComponent(status[1]!)} />;
  const link = /^\/(invite|reset|sign-in|verify)\/([^/]+)\/?$/.exec(location.pathname);
  if (link) {
    const Page = LINK_PAGES[link[1] as keyof typeof LINK_PAGES];
    return <Page token={decodeURIComponent(link[2]!)} />;
  }
  return <App />;
}

render(page(), document.getElementById('app')!);
