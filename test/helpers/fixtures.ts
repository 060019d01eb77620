// Fixtures that replace the repeated preambles: `const w = useWorld()` registers the hooks that
// create and stop a World and returns a handle that forwards every property to the live one, so
// `w.app`, `w.alice`, `w.api(...)`, `gql(w, ...)` and destructuring inside a test work unchanged.
// The same for the local receivers. Hooks run in registration order (vitest's default 'stack'
// sequence), so a file's own `beforeAll` registered after `useWorld()` sees the world ready, and
// its `afterAll` runs before the world stops.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createWorld, type World } from './world.ts';
import { startHttpReceiver, startSmtpSink, type HttpReceiver, type SmtpSink } from './receivers.ts';

type WorldOptions = Parameters<typeof createWorld>[1];

interface Slot<T> {
  current: T | undefined;
}

/** A stand-in for the value in `slot`: reads, calls and writes go to the live value. */
function forward<T extends object>(slot: Slot<T>, what: string): T {
  const live = (): T => {
    if (!slot.current) throw new Error(`${what} is only available inside tests and hooks, after its fixture has started`);
    return slot.current;
  };
  return new Proxy({} as T, {
    get(_target, prop) {
      // Not a thenable: `await handle` or returning it from an async function gives the handle.
      if (prop === 'then' && !slot.current) return undefined;
      const target = live();
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_target, prop, value) => Reflect.set(live(), prop, value),
    has: (_target, prop) => Reflect.has(live(), prop),
    ownKeys: () => Reflect.ownKeys(live()),
    getOwnPropertyDescriptor(_target, prop) {
      const d = Reflect.getOwnPropertyDescriptor(live(), prop);
      // The proxy's target is an empty extensible object, so every forwarded key must be configurable.
      return d && { ...d, configurable: true };
    },
  });
}

interface WorldController {
  slot: Slot<World>;
  env: Record<string, string>;
  options: WorldOptions;
}
const controllers = new WeakMap<object, WorldController>();

function worldFixture(env: Record<string, string>, options: WorldOptions, before: typeof beforeAll, after: typeof afterAll): World {
  const slot: Slot<World> = { current: undefined };
  before(async () => {
    slot.current = await createWorld(env, options);
  });
  after(async () => {
    const world = slot.current;
    slot.current = undefined;
    await world?.stop();
  });
  const handle = forward(slot, 'the World');
  controllers.set(handle, { slot, env, options });
  return handle;
}

/** One World for the file (or the `describe` it is called in): created before all, stopped after all. */
export function useWorld(env: Record<string, string> = {}, options: WorldOptions = {}): World {
  return worldFixture(env, options, beforeAll, afterAll);
}

/** A fresh World for every test: created before each, stopped after each. */
export function useWorldPerTest(env: Record<string, string> = {}, options: WorldOptions = {}): World {
  return worldFixture(env, options, beforeEach, afterEach);
}

/**
 * Stops the World behind a `useWorld`/`useWorldPerTest` handle and starts a new one in its place
 * (with the fixture's env overridden by `env`); the fixture's after hook stops the new one.
 */
export async function restartWorld(handle: World, env: Record<string, string> = {}): Promise<void> {
  const c = controllers.get(handle);
  if (!c) throw new Error('restartWorld takes a handle from useWorld or useWorldPerTest');
  const old = c.slot.current;
  c.slot.current = undefined;
  await old?.stop();
  c.slot.current = await createWorld({ ...c.env, ...env }, c.options);
}

/**
 * An HTTP receiver for the file, closed after all. With `reset: true` it forgets its requests and
 * answers 200 again before each test.
 */
export function useHttpReceiver(opts: { reset?: boolean } = {}): HttpReceiver {
  const slot: Slot<HttpReceiver> = { current: undefined };
  beforeAll(async () => {
    slot.current = await startHttpReceiver();
  });
  afterAll(async () => {
    const receiver = slot.current;
    slot.current = undefined;
    await receiver?.close();
  });
  if (opts.reset) {
    beforeEach(() => {
      slot.current!.requests.length = 0;
      slot.current!.respond(200);
    });
  }
  return forward(slot, 'the HTTP receiver');
}

/** An SMTP sink for the file, closed after all. With `reset: true` it forgets its messages and accepts again before each test. */
export function useSmtpSink(opts: { reset?: boolean } = {}): SmtpSink {
  const slot: Slot<SmtpSink> = { current: undefined };
  beforeAll(async () => {
    slot.current = await startSmtpSink();
  });
  afterAll(async () => {
    const sink = slot.current;
    slot.current = undefined;
    await sink?.close();
  });
  if (opts.reset) {
    beforeEach(() => {
      slot.current!.messages.length = 0;
      slot.current!.refuse(null);
    });
  }
  return forward(slot, 'the SMTP sink');
}

/**
 * A World's env with the server's outgoing mail pointed at `sink` (plain SMTP), plus `extra`.
 * The port is a getter, read when the World starts (after the sink listens): pass the result
 * to useWorld as it is; spreading it would read the port too early.
 */
export function mailTo(sink: SmtpSink, extra: Record<string, string> = {}): Record<string, string> {
  return Object.defineProperty({ EMAIL_HOST: '127.0.0.1', EMAIL_USE_TLS: 'False', ...extra }, 'EMAIL_PORT', { get: () => String(sink.port), enumerable: true });
}
