// What one GraphQL request may be: its size on the wire (body, query string) and its shape
// (depth, cost, aliases, directives, tokens). Each refusal is a GraphQL error with a code,
// answered as JSON with the HTTP status that says why.
import { GraphQLError, type ValidationContext } from 'graphql';
import type { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';
import { valueNestedDeeperThan } from '../../http/body.ts';

type GraphQLArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;

/**
 * Largest request body: 1 MiB, the bound the REST API puts on its JSON bodies and on campus
 * record forms, so both transports take records of the same size. The largest legitimate
 * operation (a page with a long body, a check with its filters) is far smaller; yoga's own
 * default (25 MB) let any caller make the server buffer and parse 25 MB of JSON per request.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * Longest query string of a GET: 8 KiB, the request line most proxies pass (nginx's
 * large_client_header_buffers) and half of Node's 16 KiB header limit, past which Node
 * answers 431 without a body. Larger operations are POSTed.
 */
export const MAX_QUERY_STRING_BYTES = 8 * 1024;

/**
 * Deepest nesting of a request's JSON (body, `variables`, `extensions`, a WebSocket message):
 * 32 levels, the Management API's bound. The deepest real operation nests about 7 (a check's
 * webhook headers inside its input inside `variables`); past the limit nothing walks the
 * value: the request is refused first (a headers look-up or a JSON.stringify of a document
 * thousands deep overflows the stack).
 */
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP_MESSAGE = `request too deeply nested: at most ${MAX_JSON_DEPTH} levels`;

/** Refused before parsing: a 413 names the limit; yoga's own message does not. */
export const REQUEST_TOO_LARGE_MESSAGE = `request body too large: at most ${MAX_REQUEST_BYTES} bytes`;

const requestError = (message: string, code: string, status: number) => new GraphQLError(message, { extensions: { code, http: { status } } });

/**
 * Query strings past MAX_QUERY_STRING_BYTES (414), POSTs of a type no parser reads (415), and
 * parameters nested past MAX_JSON_DEPTH (400) whatever parser read them (JSON, GET, form).
 */
export function useRequestLimits(): Plugin {
  return {
    onRequestParse({ request, url, requestParser, setRequestParser }) {
      if ((request.method === 'GET' || request.method === 'HEAD') && Buffer.byteLength(url.search) > MAX_QUERY_STRING_BYTES) {
        throw requestError(`query string too long: at most ${MAX_QUERY_STRING_BYTES} bytes; send larger operations in a POST body`, 'REQUEST_URI_TOO_LONG', 414);
      }
      // Yoga would answer an empty 415; other methods get its 405 later.
      if (request.method === 'POST' && !requestParser) {
        throw requestError('unsupported Content-Type: send application/json', 'UNSUPPORTED_MEDIA_TYPE', 415);
      }
      // JSON.parse itself does not recurse; the check runs on what it built, before yoga does.
      if (requestParser) {
        setRequestParser(async (req) => {
          const params = await requestParser(req);
          if (valueNestedDeeperThan(params, MAX_JSON_DEPTH)) throw requestError(TOO_DEEP_MESSAGE, 'BAD_REQUEST', 400);
          return params;
        });
      }
    },
    // Runs after yoga's own result processors: when none serves the Accept header (text/html
    // for a query, application/json for a subscription), yoga answers an empty 406; this one
    // says why, in JSON, with a code, whatever the client accepts.
    onResultProcess({ resultProcessor, acceptableMediaTypes, setResultProcessor }) {
      if (resultProcessor) return;
      const offered = [...new Set(acceptableMediaTypes)];
      setResultProcessor((_result, fetchAPI) => {
        const body = { errors: [{ message: `cannot answer in any type the Accept header allows; send Accept: ${offered.join(', ')}`, extensions: { code: 'NOT_ACCEPTABLE' } }] };
        return new fetchAPI.Response(JSON.stringify(body), { status: 406, headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: offered.join(', ') } });
      }, 'application/json');
    },
  };
}

type Limit = 'aliases' | 'cost' | 'depth' | 'directives' | 'tokens';

/**
 * graphql-armor prefixes its refusals with "Syntax Error:" and gives them no code; they are
 * query limits, answered as validation errors are: 400 with application/graphql-response+json,
 * 200 with application/json (yoga's `spec` flag).
 */
function refuse(limit: Limit) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    const refusal = new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
      extensions: { code: 'QUERY_LIMIT_EXCEEDED', limit, http: { spec: true, status: 400 } },
    });
    // Validation rules report and go on, so one answer lists every problem; the token limit
    // runs inside the parser, which has no validation context, so it throws.
    if (context) context.reportError(refusal);
    else throw refusal;
  };
}

const rejecting = (limit: Limit) => ({ propagateOnRejection: false, onReject: [refuse(limit)] });

/** Query limits; over WebSocket too, since graphql-ws operations run through the same envelop. */
export const ARMOR: GraphQLArmorConfig = {
  maxDepth: { n: 10, ...rejecting('depth') },
  // Armor multiplies a selection's cost by a literal `first`: 50,000 lets a dashboard ask
  // for 100 checks with 10 pings each (about 31,000) and refuses 1,000 × 100.
  costLimit: { maxCost: 50000, ...rejecting('cost') },
  maxAliases: { n: 30, ...rejecting('aliases') },
  maxDirectives: { n: 50, ...rejecting('directives') },
  maxTokens: { n: 5000, ...rejecting('tokens') },
  blockFieldSuggestion: { enabled: false },
};
