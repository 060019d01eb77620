// The schema: importing the type modules registers them on the builder.
import { builder } from './builder.ts';
import './monitoring/ping.ts';
import './monitoring/flip.ts';
import './monitoring/notification.ts';
import './monitoring/channel.ts';
import './monitoring/check.ts';
import './monitoring/downtimes.ts';
import './monitoring/project.ts';
import './monitoring/status-page.ts';
import './monitoring/schedule-preview.ts';
import './campus/records.ts';
import './campus/relationships.ts';
import './campus/computed.ts';
import './subscriptions.ts';
import './links/schema.ts';
import './identity/session.ts';
import './identity/projects.ts';
import './identity/second-factors.ts';
import './identity/email-links.ts';
import './identity/invitations.ts';
import './identity/report-settings.ts';
import './node.ts';

export const schema = builder.toSchema();
