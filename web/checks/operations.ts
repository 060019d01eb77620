// The checks screens' GraphQL documents, typed by codegen (`npm run codegen`). `$project` is the
// project's UUID for a signed-in person and null for an API key (the server then takes the key's
// own project). What only writers may read (channels, pings, notifications: the server answers
// a read-only key or member with an error at those paths) is selected under
// `@include(if: $writer)`, so one document serves both and a read-only caller's answer stays
// whole. Selections are written out in each document: codegen cannot see interpolations, and
// fragments would come back masked.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export type CheckStatus = G.CheckStatus;
export type CheckInput = G.CheckInput;
export type CampusKind = G.CampusKind;

export const CHECKS_LIST = doc<G.ChecksListQuery, G.ChecksListQueryVariables>(/* GraphQL */ `
  query ChecksList($project: ID, $after: String, $writer: Boolean!) {
    project(id: $project) {
      checks(first: 100, after: $after) {
        nodes {
          uuid uniqueKey name slug desc status kind timeout grace schedule tz lastPing nextPing tags createdAt
          channels @include(if: $writer) { uuid }
          records {
            __typename
            ... on BlogPost { databaseId title handle }
            ... on Course { databaseId title code }
            ... on Group { databaseId name handle }
            ... on Location { databaseId title handle }
            ... on Page { databaseId title handle }
            ... on Person { databaseId firstName lastName username }
            ... on Section { databaseId sectionTitle: title sectionCode: code }
            ... on Term { databaseId title handle }
          }
        }
        hasNextPage
        endCursor
      }
    }
  }
`);
export type CheckSummary = G.ChecksListQuery['project']['checks']['nodes'][number];
export type LinkedRecord = CheckSummary['records'][number];

export const CHECKS_CHANGED = doc<G.ChecksChangedSubscription, G.ChecksChangedSubscriptionVariables>(/* GraphQL */ `
  subscription ChecksChanged($project: ID, $writer: Boolean!) {
    checkChanged(project: $project) {
      change
      check {
        uuid uniqueKey name slug desc status kind timeout grace schedule tz lastPing nextPing tags createdAt
        channels @include(if: $writer) { uuid }
        records {
          __typename
          ... on BlogPost { databaseId title handle }
          ... on Course { databaseId title code }
          ... on Group { databaseId name handle }
          ... on Location { databaseId title handle }
          ... on Page { databaseId title handle }
          ... on Person { databaseId firstName lastName username }
          ... on Section { databaseId sectionTitle: title sectionCode: code }
          ... on Term { databaseId title handle }
        }
      }
    }
  }
`);

/** The project's channels (read-write keys and members who may write). */
export const CHECKS_CHANNELS = doc<G.ChecksChannelsQuery, G.ChecksChannelsQueryVariables>(/* GraphQL */ `
  query ChecksChannels($project: ID) { project(id: $project) { channels { uuid name kind target disabled } } }
`);
export type ProjectChannel = NonNullable<G.ChecksChannelsQuery['project']['channels']>[number];

/** Which channels alert for one check: "" for none, else their UUIDs, comma-separated. */
export const CHECK_SET_CHANNELS = doc<G.CheckSetChannelsMutation, G.CheckSetChannelsMutationVariables>(/* GraphQL */ `
  mutation CheckSetChannels($id: ID!, $channels: String!) { updateCheck(id: $id, input: { channels: $channels }) { uniqueKey channels { uuid } } }
`);

export const CHECK_CREATE = doc<G.CheckCreateMutation, G.CheckCreateMutationVariables>(/* GraphQL */ `
  mutation CheckCreate($project: ID, $input: CheckInput!) { createCheck(project: $project, input: $input) { check { uniqueKey name } } }
`);

export const CHECK_PAGE = doc<G.CheckPageQuery, G.CheckPageQueryVariables>(/* GraphQL */ `
  query CheckPage($project: ID, $uniqueKey: String!, $writer: Boolean!) {
    check(project: $project, uniqueKey: $uniqueKey) {
      id uuid uniqueKey name slug tags tagsString desc kind timeout grace schedule tz status started
      manualResume methods filterSubject filterBody filterHttpBody filterDefaultFail startKw successKw failureKw
      lastPing nextPing lastDuration nPings createdAt pingUrl pingEmail
      channels @include(if: $writer) { uuid }
      records {
        __typename
        ... on BlogPost { databaseId title handle }
        ... on Course { databaseId title code }
        ... on Group { databaseId name handle }
        ... on Location { databaseId title handle }
        ... on Page { databaseId title handle }
        ... on Person { databaseId firstName lastName username }
        ... on Section { databaseId sectionTitle: title sectionCode: code }
        ... on Term { databaseId title handle }
      }
      flips { timestamp up oldStatus newStatus reason }
      downtimes(months: 3) { month downtime outages }
      pings(first: 100) @include(if: $writer) { n type date method scheme remoteAddr ua exitStatus duration body rid }
      notifications(first: 50) @include(if: $writer) {
        uuid createdAt eventAt reason status state error attempts sentAt durationMs
        channel { uuid name kind target }
      }
    }
    project(id: $project) {
      pingLogLimit
      channels @include(if: $writer) { uuid name kind target disabled }
    }
  }
`);
export type CheckDetail = G.CheckPageQuery['check'];
export type Flip = CheckDetail['flips'][number];
export type Ping = NonNullable<CheckDetail['pings']>[number];
export type SentNotification = NonNullable<CheckDetail['notifications']>[number];
export type MonthDowntime = CheckDetail['downtimes'][number];

/** Downtime per month, read again after a flip. */
export const CHECK_DOWNTIMES = doc<G.CheckDowntimesQuery, G.CheckDowntimesQueryVariables>(/* GraphQL */ `
  query CheckDowntimes($project: ID, $uniqueKey: String!) { check(project: $project, uniqueKey: $uniqueKey) { downtimes(months: 3) { month downtime outages } } }
`);

/** The server's reading of a cron schedule (no key needed): words, next runs, or its error. */
export const SCHEDULE_PREVIEW = doc<G.CheckSchedulePreviewQuery, G.CheckSchedulePreviewQueryVariables>(/* GraphQL */ `
  query CheckSchedulePreview($schedule: String!, $tz: String) { schedulePreview(schedule: $schedule, tz: $tz, count: 5) { ok error description nextTimes } }
`);
export type SchedulePreview = G.CheckSchedulePreviewQuery['schedulePreview'];

/** A check's own fields (as the page's subscription and the update give them), without its lists. */
export type CheckFields = G.CheckChangedSubscription['checkChanged']['check'];

/** The page's check as it changes (pings, status, pause, edits, links), without its lists. */
export const CHECK_CHANGED = doc<G.CheckChangedSubscription, G.CheckChangedSubscriptionVariables>(/* GraphQL */ `
  subscription CheckChanged($project: ID, $writer: Boolean!) {
    checkChanged(project: $project) {
      change
      check {
        id uuid uniqueKey name slug tags tagsString desc kind timeout grace schedule tz status started
        manualResume methods filterSubject filterBody filterHttpBody filterDefaultFail startKw successKw failureKw
        lastPing nextPing lastDuration nPings createdAt pingUrl pingEmail
        channels @include(if: $writer) { uuid }
        records {
          __typename
          ... on BlogPost { databaseId title handle }
          ... on Course { databaseId title code }
          ... on Group { databaseId name handle }
          ... on Location { databaseId title handle }
          ... on Page { databaseId title handle }
          ... on Person { databaseId firstName lastName username }
          ... on Section { databaseId sectionTitle: title sectionCode: code }
          ... on Term { databaseId title handle }
        }
      }
    }
  }
`);

export const CHECK_FLIPS = doc<G.CheckFlipsSubscription, G.CheckFlipsSubscriptionVariables>(/* GraphQL */ `
  subscription CheckFlips($project: ID) { flips(project: $project) { timestamp up oldStatus newStatus reason check { uniqueKey } } }
`);

export const CHECK_PINGS = doc<G.CheckPingsSubscription, G.CheckPingsSubscriptionVariables>(/* GraphQL */ `
  subscription CheckPings($checkId: ID!) { pings(checkId: $checkId) { n type date method scheme remoteAddr ua exitStatus duration body rid } }
`);

export const CHECK_NOTIFICATION_OUTCOMES = doc<G.CheckNotificationOutcomesSubscription, G.CheckNotificationOutcomesSubscriptionVariables>(/* GraphQL */ `
  subscription CheckNotificationOutcomes($checkId: ID!) {
    notificationOutcomes(checkId: $checkId) {
      notification {
        uuid createdAt eventAt reason status state error attempts sentAt durationMs
        channel { uuid name kind target }
      }
    }
  }
`);

export const CHECK_UPDATE = doc<G.CheckUpdateMutation, G.CheckUpdateMutationVariables>(/* GraphQL */ `
  mutation CheckUpdate($id: ID!, $input: CheckInput!, $writer: Boolean!) {
    updateCheck(id: $id, input: $input) {
      id uuid uniqueKey name slug tags tagsString desc kind timeout grace schedule tz status started
      manualResume methods filterSubject filterBody filterHttpBody filterDefaultFail startKw successKw failureKw
      lastPing nextPing lastDuration nPings createdAt pingUrl pingEmail
      channels @include(if: $writer) { uuid }
      records {
        __typename
        ... on BlogPost { databaseId title handle }
        ... on Course { databaseId title code }
        ... on Group { databaseId name handle }
        ... on Location { databaseId title handle }
        ... on Page { databaseId title handle }
        ... on Person { databaseId firstName lastName username }
        ... on Section { databaseId sectionTitle: title sectionCode: code }
        ... on Term { databaseId title handle }
      }
    }
  }
`);

export const CHECK_PAUSE = doc<G.CheckPauseMutation, G.CheckPauseMutationVariables>(/* GraphQL */ `
  mutation CheckPause($id: ID!) { pauseCheck(id: $id) { uniqueKey status } }
`);

export const CHECK_RESUME = doc<G.CheckResumeMutation, G.CheckResumeMutationVariables>(/* GraphQL */ `
  mutation CheckResume($id: ID!) { resumeCheck(id: $id) { uniqueKey status } }
`);

export const CHECK_DELETE = doc<G.CheckDeleteMutation, G.CheckDeleteMutationVariables>(/* GraphQL */ `
  mutation CheckDelete($id: ID!) { deleteCheck(id: $id) { uniqueKey } }
`);

export const CHECK_LINK_RECORD = doc<G.CheckLinkRecordMutation, G.CheckLinkRecordMutationVariables>(/* GraphQL */ `
  mutation CheckLinkRecord($check: ID!, $kind: CampusKind!, $handle: String!) {
    linkCheckRecord(check: $check, kind: $kind, handle: $handle) {
      uniqueKey tags tagsString
      records {
        __typename
        ... on BlogPost { databaseId title handle }
        ... on Course { databaseId title code }
        ... on Group { databaseId name handle }
        ... on Location { databaseId title handle }
        ... on Page { databaseId title handle }
        ... on Person { databaseId firstName lastName username }
        ... on Section { databaseId sectionTitle: title sectionCode: code }
        ... on Term { databaseId title handle }
      }
    }
  }
`);

export const CHECK_UNLINK_RECORD = doc<G.CheckUnlinkRecordMutation, G.CheckUnlinkRecordMutationVariables>(/* GraphQL */ `
  mutation CheckUnlinkRecord($check: ID!, $kind: CampusKind!, $handle: String!) {
    unlinkCheckRecord(check: $check, kind: $kind, handle: $handle) {
      uniqueKey tags tagsString
      records {
        __typename
        ... on BlogPost { databaseId title handle }
        ... on Course { databaseId title code }
        ... on Group { databaseId name handle }
        ... on Location { databaseId title handle }
        ... on Page { databaseId title handle }
        ... on Person { databaseId firstName lastName username }
        ... on Section { databaseId sectionTitle: title sectionCode: code }
        ... on Term { databaseId title handle }
      }
    }
  }
`);
