// JSON that gives back what it was given: event payloads carry Dates, Prisma rows (a ping's
// body is a Buffer or Uint8Array) and possibly BigInts, which plain JSON turns into strings,
// `{type:'Buffer',data:[…]}` or a TypeError. Such values travel as tag objects `{"$": tag,
// "v": value}`; the only object with a key exactly "$" is a tag, because every key of the
// payload's own that starts with "$" is sent with one more "$" in front (and loses it again).

type Tagged = { $: string; v: unknown };

const encoders: Array<[test: (raw: unknown) => boolean, encode: (raw: never) => Tagged]> = [
  // NaN (an invalid Date) becomes null in JSON; reviving null gives the invalid Date back.
  [(raw) => raw instanceof Date, (d: Date) => ({ $: 'Date', v: d.getTime() })],
  [(raw) => Buffer.isBuffer(raw), (b: Buffer) => ({ $: 'Buffer', v: b.toString('base64') })],
  [(raw) => raw instanceof Uint8Array, (u: Uint8Array) => ({ $: 'Uint8Array', v: Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64') })],
  [(raw) => typeof raw === 'bigint', (n: bigint) => ({ $: 'BigInt', v: n.toString() })],
  [(raw) => raw === undefined, () => ({ $: 'undefined', v: 0 })],
];

const decoders: Record<string, (v: never) => unknown> = {
  Date: (v: number | null) => new Date(v ?? NaN),
  Buffer: (v: string) => Buffer.from(v, 'base64'),
  Uint8Array: (v: string) => new Uint8Array(Buffer.from(v, 'base64')),
  BigInt: (v: string) => BigInt(v),
  undefined: () => undefined,
};

const DOLLAR = 36;

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `value` has been through toJSON already (a Date is a string by now): look at the original.
  const raw = this[key];
  for (const [test, encode] of encoders) if (test(raw)) return encode(raw as never);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return hasDollarKey(value) ? renameKeys(value, (k) => (k.charCodeAt(0) === DOLLAR ? `$${k}` : k)) : value;
}

// A walk rather than a JSON.parse reviver: a reviver cannot give a property the value undefined
// (returning undefined deletes it). Objects fresh from JSON.parse are changed in place.
function decode(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decode(value[i]);
    return value;
  }
  let obj = value as Record<string, unknown>;
  if (typeof obj.$ === 'string' && Object.hasOwn(obj, '$')) {
    const decodeTag = Object.hasOwn(decoders, obj.$) ? decoders[obj.$] : undefined;
    if (!decodeTag) throw new TypeError(`unknown tag ${JSON.stringify(obj.$)}`);
    return decodeTag((obj as Tagged).v as never);
  }
  if (hasDollarKey(obj)) obj = renameKeys(obj, (k) => (k.charCodeAt(0) === DOLLAR ? k.slice(1) : k));
  // An own "__proto__" (JSON.parse and renameKeys make it one) is set like any other key.
  for (const k of Object.keys(obj)) obj[k] = decode(obj[k]);
  return obj;
}

function hasDollarKey(obj: object): boolean {
  for (const k of Object.keys(obj)) if (k.charCodeAt(0) === DOLLAR) return true;
  return false;
}

function renameKeys(obj: object, rename: (key: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // defineProperty: a payload's own "__proto__" key stays a key instead of setting the prototype.
  for (const [k, value] of Object.entries(obj)) Object.defineProperty(out, rename(k), { value, enumerable: true, writable: true, configurable: true });
  return out;
}

export const taggedJson = {
  stringify: (value: unknown): string => JSON.stringify(value, replacer),
  parse: (text: string): unknown => decode(JSON.parse(text)),
};
