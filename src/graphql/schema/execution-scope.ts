// What a request's batching loaders hang on. A query executes once per context, but a
// subscription's context serves every one of its events, each executed with the event as its
// root value: loaders kept per context would answer a later event with what an earlier one
// read. Keyed by the event instead, they batch and deduplicate within one execution only.
import type { GraphQLResolveInfo } from 'graphql';

export const executionScope = (ctx: object, info: GraphQLResolveInfo): object =>
  typeof info.rootValue === 'object' && info.rootValue !== null ? info.rootValue : ctx;
