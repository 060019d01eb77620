// Rocket.Chat's incoming webhooks take its own payload (message.ts).
import { chatTransport } from '../shared/chat.ts';
import { rocketChatPayload } from './message.ts';

export const rocketChatTransport = chatTransport({ payload: rocketChatPayload });
