// The tag segment of a badge URL, byte-for-byte as Healthchecks builds and reads it
// (QuoteConverter in hc/api/urls.py plus Django's reverse()), so published URLs match.

// Python's quote(s, safe="") leaves only these ASCII characters alone.
const UNRESERVED = /^[A-Za-z0-9_.~-]$/;
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Python's quote(tag, safe=""); Buffer.from replaces lone surrogates instead of throwing. */
function pyQuote(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += UNRESERVED.test(c) ? c : hex(b);
  }
  return out;
}

/** reverse() quotes the converter's output again, and only "%" is left to escape: "a@b" → "a%2540b". */
export const encodeTagSegment = (tag: string): string => pyQuote(tag).replace(/%/g, '%25');

// Python decodes with errors="replace" and keeps a leading BOM, hence ignoreBOM.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Python's unquote(): the router has already decoded the path once and Healthchecks
 * unquotes again. Lenient like Python: a stray "%" stays, bad UTF-8 becomes U+FFFD,
 * and only ASCII runs are decoded (as Python splits on them).
 */
export function decodeTagSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  return segment.replace(/[\x00-\x7f]+/g, (run) => {
    if (!run.includes('%')) return run;
    const bytes: number[] = [];
    for (let i = 0; i < run.length; i++) {
      const pair = run.slice(i + 1, i + 3);
      if (run[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(pair)) {
        bytes.push(parseInt(pair, 16));
        i += 2;
      } else bytes.push(run.charCodeAt(i));
    }
    return utf8.decode(Uint8Array.from(bytes));
  });
}

/**
 * Healthchecks' route only accepts a decoded tag segment matching [\w%~_.-]+ (Python's
 * Unicode \w ≈ letters, numbers, "_"); anything else is a 404 before the view runs.
 */
export const isTagSegment = (segment: string): boolean => /^[\p{L}\p{N}_%~.-]+$/u.test(segment);
