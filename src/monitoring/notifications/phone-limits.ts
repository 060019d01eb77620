// The names of the monthly phone quotas and of the services they stop, apart from the code
// that counts them (phone-quota.ts) and mails the owner (limit-notice.ts): transports name them
// in Delivery's type, and importing those modules from there would close an import circle
// (limit-notice → prepared-mail → the email transport → the Delivery type).

/** The account's two monthly counts: SMS and WhatsApp messages, and phone calls. */
export type PhoneQuota = 'messages' | 'calls';

/** How the owner's notice names the service a limit stopped. */
export type LimitedService = 'SMS' | 'WhatsApp' | 'phone call';
