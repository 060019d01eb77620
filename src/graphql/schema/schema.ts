// The schema: importing the type modules registers them on the builder.
import { builder } from './builder.ts';
import './monitoring/ping.ts';
import './monitoring/flip.ts';
import './monitoring/notification.ts';
import './monitoring/channel.ts';
import './monitoring/check.ts';
import './monitoring/project.ts';
import './monitoring/status-page.ts';
import './campus/records.ts';
import './campus/relationships.ts';
import './campus/computed.ts';
import './subscriptions.ts';
import './links/schema.ts';
import './node.ts';

export const schema = builder.toSchema();
