// The integrations screen's documents: a project's notification channels, adding, changing,
// testing and deleting one, and the delivery outcomes that keep each channel's last error and
// recent notifications current. Channels take their UUID (`uuid`) in the mutations. Every
// document selects the same channel fields (no fragments: the client preset would mask them),
// so a mutation's answer or a pushed channel replaces the listed one as it is.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export type ChannelKind = G.ChannelKind;

export const INTEGRATION_CHANNELS = doc<G.IntegrationChannelsQuery, G.IntegrationChannelsQueryVariables>(/* GraphQL */ `
  query IntegrationChannels($project: ID!) {
    channelKinds
    project(id: $project) {
      channels {
        uuid kind name target notifyDown notifyUp disabled emailVerified lastError
        webhook { down { method url body headers { name value } } up { method url body headers { name value } } }
        notifications(first: 5) { uuid eventAt reason status state error durationMs attempts }
      }
    }
  }
`);
export type Channel = NonNullable<G.IntegrationChannelsQuery['project']['channels']>[number];
export type ChannelNotification = Channel['notifications'][number];
export type WebhookSide = NonNullable<Channel['webhook']>['down'];

export const INTEGRATION_CREATE = doc<G.IntegrationCreateChannelMutation, G.IntegrationCreateChannelMutationVariables>(/* GraphQL */ `
  mutation IntegrationCreateChannel($project: ID!, $kind: ChannelKind!, $name: String, $value: String, $webhook: WebhookSpecInput, $notifyDown: Boolean, $notifyUp: Boolean) {
    createChannel(project: $project, kind: $kind, name: $name, value: $value, webhook: $webhook, notifyDown: $notifyDown, notifyUp: $notifyUp) {
      uuid kind name target notifyDown notifyUp disabled emailVerified lastError
      webhook { down { method url body headers { name value } } up { method url body headers { name value } } }
      notifications(first: 5) { uuid eventAt reason status state error durationMs attempts }
    }
  }
`);

export const INTEGRATION_UPDATE = doc<G.IntegrationUpdateChannelMutation, G.IntegrationUpdateChannelMutationVariables>(/* GraphQL */ `
  mutation IntegrationUpdateChannel($id: ID!, $name: String, $value: String, $webhook: WebhookSpecInput, $notifyDown: Boolean, $notifyUp: Boolean, $disabled: Boolean) {
    updateChannel(id: $id, name: $name, value: $value, webhook: $webhook, notifyDown: $notifyDown, notifyUp: $notifyUp, disabled: $disabled) {
      uuid kind name target notifyDown notifyUp disabled emailVerified lastError
      webhook { down { method url body headers { name value } } up { method url body headers { name value } } }
      notifications(first: 5) { uuid eventAt reason status state error durationMs attempts }
    }
  }
`);
export type ChannelPatch = Omit<G.IntegrationUpdateChannelMutationVariables, 'id'>;

export const INTEGRATION_DELETE = doc<G.IntegrationDeleteChannelMutation, G.IntegrationDeleteChannelMutationVariables>(/* GraphQL */ `
  mutation IntegrationDeleteChannel($id: ID!) { deleteChannel(id: $id) }
`);

export const INTEGRATION_TEST = doc<G.IntegrationTestChannelMutation, G.IntegrationTestChannelMutationVariables>(/* GraphQL */ `
  mutation IntegrationTestChannel($id: ID!) { testChannel(id: $id) { ok error state durationMs } }
`);
export type TestResult = G.IntegrationTestChannelMutation['testChannel'];

/** Mails an email channel's recipient the confirmation link again (they have not confirmed yet). */
export const INTEGRATION_SEND_VERIFICATION = doc<G.IntegrationSendVerificationMutation, G.IntegrationSendVerificationMutationVariables>(/* GraphQL */ `
  mutation IntegrationSendVerification($id: ID!) { sendChannelVerification(id: $id) }
`);

/** Each finished delivery attempt, with its channel as stored now (its new last error, its list). */
export const INTEGRATION_OUTCOMES = doc<G.IntegrationNotificationOutcomesSubscription, G.IntegrationNotificationOutcomesSubscriptionVariables>(/* GraphQL */ `
  subscription IntegrationNotificationOutcomes($project: ID!) {
    notificationOutcomes(project: $project) {
      notification {
        channel {
          uuid kind name target notifyDown notifyUp disabled emailVerified lastError
          webhook { down { method url body headers { name value } } up { method url body headers { name value } } }
          notifications(first: 5) { uuid eventAt reason status state error durationMs attempts }
        }
      }
    }
  }
`);
export type OutcomeData = G.IntegrationNotificationOutcomesSubscription;
