// A typed subscription: the document's result and variables types (codegen) carried through
// Live.subscribe, which takes any document.
import type { Document, GraphQLErrorShape } from '../lib/graphql.ts';
import type { Live } from '../lib/live.ts';

export const subscribe = <R, V extends object>(live: Live, document: Document<R, V>, variables: V, handler: (data: R | null, errors: GraphQLErrorShape[]) => void) =>
  live.subscribe<R>(document, variables as Record<string, unknown>, handler);
