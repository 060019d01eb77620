// The account screens' documents: who is signed in, signing in and out, and the settings page
// (sessions, second factors). Types from `npm run codegen`.
import type * as G from '../../src/generated/graphql/graphql.ts';
import { doc } from '../lib/graphql.ts';

export const VIEWER = doc<G.ViewerQuery, G.ViewerQueryVariables>(/* GraphQL */ `
  query Viewer {
    viewer {
      username
      email
      person { firstName lastName }
      projects { role project { uuid name } }
    }
  }
`);
export type ViewerData = NonNullable<G.ViewerQuery['viewer']>;

export const SIGN_IN = doc<G.AccountSignInMutation, G.AccountSignInMutationVariables>(/* GraphQL */ `
  mutation AccountSignIn($username: String!, $password: String!, $totp: String, $securityKey: String, $recoveryCode: String) {
    signIn(username: $username, password: $password, totp: $totp, securityKey: $securityKey, recoveryCode: $recoveryCode) { username }
  }
`);

export const BEGIN_KEY_SIGN_IN = doc<G.BeginKeySignInMutation, G.BeginKeySignInMutationVariables>(/* GraphQL */ `
  mutation BeginKeySignIn($username: String!, $password: String!) { beginSecurityKeySignIn(username: $username, password: $password) }
`);

export const SIGN_OUT = doc<G.SignOutMutation, G.SignOutMutationVariables>(/* GraphQL */ `
  mutation SignOut { signOut }
`);

export const SESSIONS = doc<G.SessionsQuery, G.SessionsQueryVariables>(/* GraphQL */ `
  query Sessions {
    viewer { sessions { id kind created lastRequest expiresAt userAgent address current } }
  }
`);
export type SessionRow = NonNullable<G.SessionsQuery['viewer']>['sessions'][number];

export const END_SESSION = doc<G.EndSessionMutation, G.EndSessionMutationVariables>(/* GraphQL */ `
  mutation EndSession($id: Int!) { endSession(id: $id) }
`);

export const SIGN_OUT_EVERYWHERE = doc<G.SignOutEverywhereMutation, G.SignOutEverywhereMutationVariables>(/* GraphQL */ `
  mutation SignOutEverywhere { signOutEverywhere }
`);

export const SECOND_FACTORS = doc<G.SecondFactorsQuery, G.SecondFactorsQueryVariables>(/* GraphQL */ `
  query SecondFactors {
    secondFactors { totp recoveryCodesLeft securityKeys { id name createdAt lastUsedAt } }
  }
`);
export type Factors = G.SecondFactorsQuery['secondFactors'];

export const BEGIN_TOTP = doc<G.BeginTotpMutation, G.BeginTotpMutationVariables>(/* GraphQL */ `
  mutation BeginTotp($password: String!) { beginTotpSetup(password: $password) { secret uri } }
`);

export const CONFIRM_TOTP = doc<G.ConfirmTotpMutation, G.ConfirmTotpMutationVariables>(/* GraphQL */ `
  mutation ConfirmTotp($code: String!) { confirmTotpSetup(code: $code) }
`);

export const DISABLE_TOTP = doc<G.DisableTotpMutation, G.DisableTotpMutationVariables>(/* GraphQL */ `
  mutation DisableTotp($password: String!) { disableTotp(password: $password) }
`);

export const NEW_RECOVERY_CODES = doc<G.NewRecoveryCodesMutation, G.NewRecoveryCodesMutationVariables>(/* GraphQL */ `
  mutation NewRecoveryCodes($password: String!) { regenerateRecoveryCodes(password: $password) }
`);

export const BEGIN_KEY_SETUP = doc<G.BeginKeySetupMutation, G.BeginKeySetupMutationVariables>(/* GraphQL */ `
  mutation BeginKeySetup($password: String!) { beginSecurityKeySetup(password: $password) }
`);

export const FINISH_KEY_SETUP = doc<G.FinishKeySetupMutation, G.FinishKeySetupMutationVariables>(/* GraphQL */ `
  mutation FinishKeySetup($name: String!, $response: String!) {
    finishSecurityKeySetup(name: $name, response: $response) { securityKey { id name } recoveryCodes }
  }
`);

export const REMOVE_KEY = doc<G.RemoveKeyMutation, G.RemoveKeyMutationVariables>(/* GraphQL */ `
  mutation RemoveKey($id: Int!, $password: String!) { removeSecurityKey(id: $id, password: $password) }
`);

export const CHANGE_PASSWORD = doc<G.ChangePasswordMutation, G.ChangePasswordMutationVariables>(/* GraphQL */ `
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) { changePassword(currentPassword: $currentPassword, newPassword: $newPassword) }
`);

// The pages emailed links open: /invite/<token>, /reset/<token>, /sign-in/<token>, /verify/<token>.

export const INVITATION = doc<G.InvitationPreviewQuery, G.InvitationPreviewQueryVariables>(/* GraphQL */ `
  query InvitationPreview($token: String!) {
    invitation(token: $token) { projectName role email invitedBy }
    viewer { username projects { project { uuid } } }
  }
`);
export type Preview = NonNullable<G.InvitationPreviewQuery['invitation']>;

export const ACCEPT_INVITATION = doc<G.AcceptInvitationMutation, G.AcceptInvitationMutationVariables>(/* GraphQL */ `
  mutation AcceptInvitation($token: String!, $username: String, $password: String) {
    acceptInvitation(token: $token, username: $username, password: $password) { username projects { project { uuid } } }
  }
`);

export const REQUEST_PASSWORD_RESET = doc<G.RequestPasswordResetMutation, G.RequestPasswordResetMutationVariables>(/* GraphQL */ `
  mutation RequestPasswordReset($username: String!) { requestPasswordReset(username: $username) }
`);

export const RESET_PASSWORD = doc<G.ResetPasswordMutation, G.ResetPasswordMutationVariables>(/* GraphQL */ `
  mutation ResetPassword($token: String!, $password: String!) { resetPassword(token: $token, password: $password) }
`);

export const REQUEST_SIGN_IN_LINK = doc<G.RequestSignInLinkMutation, G.RequestSignInLinkMutationVariables>(/* GraphQL */ `
  mutation RequestSignInLink($email: String!) { requestSignInLink(email: $email) }
`);

export const SIGN_IN_WITH_LINK = doc<G.SignInWithLinkMutation, G.SignInWithLinkMutationVariables>(/* GraphQL */ `
  mutation SignInWithLink($token: String!, $totp: String, $securityKey: String, $recoveryCode: String) {
    signInWithLink(token: $token, totp: $totp, securityKey: $securityKey, recoveryCode: $recoveryCode) { username }
  }
`);

export const BEGIN_KEY_SIGN_IN_WITH_LINK = doc<G.BeginKeySignInWithLinkMutation, G.BeginKeySignInWithLinkMutationVariables>(/* GraphQL */ `
  mutation BeginKeySignInWithLink($token: String!) { beginSecurityKeySignInWithLink(token: $token) }
`);

export const VERIFY_EMAIL = doc<G.VerifyEmailMutation, G.VerifyEmailMutationVariables>(/* GraphQL */ `
  mutation VerifyEmail($token: String!) { verifyEmail(token: $token) }
`);

// Sign-up (REGISTRATION_OPEN): whether the sign-in page offers it, and the request; /verify/<token> confirms.

export const SIGN_UP_OPEN = doc<G.SignUpOpenQuery, G.SignUpOpenQueryVariables>(/* GraphQL */ `
  query SignUpOpen { signUpOpen }
`);

export const SIGN_UP = doc<G.SignUpMutation, G.SignUpMutationVariables>(/* GraphQL */ `
  mutation SignUp($username: String!, $email: String!, $password: String!) { signUp(username: $username, email: $email, password: $password) }
`);

export const REPORT_SETTINGS = doc<G.ReportSettingsQuery, G.ReportSettingsQueryVariables>(/* GraphQL */ `
  query ReportSettings { viewer { reportSettings { reports nagPeriod timeZone nextReportAt } } }
`);
export type ReportSettingsData = NonNullable<G.ReportSettingsQuery['viewer']>['reportSettings'];

export const SET_REPORT_SETTINGS = doc<G.SetReportSettingsMutation, G.SetReportSettingsMutationVariables>(/* GraphQL */ `
  mutation SetReportSettings($reports: ReportPeriod!, $nagPeriod: NagPeriod!, $timeZone: String!) {
    setReportSettings(reports: $reports, nagPeriod: $nagPeriod, timeZone: $timeZone) { reports nagPeriod timeZone nextReportAt }
  }
`);
