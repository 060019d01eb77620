// The signed-in person a field acts for; fields that manage one's own account need one.
import { unauthenticated } from '../../../shared/errors.ts';
import type { SignedIn } from '../../../identity/caller.ts';
import type { GraphQLContext } from '../context.ts';

/** The person behind the request's session cookie, or UNAUTHENTICATED 'sign in first'. */
export async function requireSignedIn(ctx: Pick<GraphQLContext, 'signedIn'>): Promise<SignedIn> {
  const me = await ctx.signedIn();
  if (!me) throw unauthenticated('sign in first');
  return me;
}
