// The browser entry: /status/<slug> is a public status page, everything else the dashboard.
import { render } from 'preact';
import { Dashboard } from './dashboard/Dashboard.tsx';
import { StatusPageView } from './status/StatusPageView.tsx';
import './styles.css';

const status = /^\/status\/([^/]+)\/?$/.exec(location.pathname);
render(status ? <StatusPageView slug={decodeURIComponent(status[1]!)} /> : <Dashboard />, document.getElementById('app')!);
