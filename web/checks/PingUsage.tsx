// How to ping the check: its URL and email address to copy, and examples with the real URL
// (curl, a shell wrapper reporting start and exit status, Python, Node) as tabs.
import { useId, useState } from 'preact/hooks';
import { CopyButton } from './Copy.tsx';

const CURL = 'curl -fsS -m 10 --retry 5 -o /dev/null';

const SNIPPETS: Array<{ label: string; code: (url: string) => string }> = [
  { label: 'curl', code: (url) => `${CURL} ${url}` },
  {
    label: 'Shell',
    code: (url) => `#!/bin/sh
URL=${url}
# The job started: its duration is measured from here
${CURL} "$URL/start"
/path/to/job.sh
# Its exit status: 0 is a success, anything else a failure
${CURL} "$URL/$?"`,
  },
  {
    label: 'Python',
    code: (url) => `import urllib.request

try:
    urllib.request.urlopen("${url}", timeout=10)
except OSError as e:
    # A failed ping should not fail the job itself
    print("Ping failed: %s" % e)`,
  },
  {
    label: 'Node',
    code: (url) => `// Node 18 or later
try {
  await fetch("${url}", { signal: AbortSignal.timeout(10_000) });
} catch (err) {
  // A failed ping should not fail the job itself
  console.error("Ping failed:", err);
}`,
  },
];

export function PingUsage({ pingUrl, pingEmail }: { pingUrl: string; pingEmail: string | null }) {
  const id = useId();
  const [chosen, setChosen] = useState(0);
  const snippet = SNIPPETS[chosen]!;
  // Arrow keys move between tabs, as in any tab list.
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = (chosen + step + SNIPPETS.length) % SNIPPETS.length;
    setChosen(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };
  return (
    <section class="ping-usage" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>How to ping</h2>
      <dl class="facts">
        <dt>Ping URL</dt>
        <dd class="copyable"><code data-ping-url>{pingUrl}</code> <CopyButton text={pingUrl} what="ping URL" /></dd>
        {pingEmail && (
          <>
            <dt>Ping email</dt>
            <dd class="copyable"><code data-ping-email>{pingEmail}</code> <CopyButton text={pingEmail} what="ping email address" /></dd>
          </>
        )}
      </dl>
      <p class="hint">
        Add <code>/start</code> when the job starts, <code>/fail</code> when it fails, <code>/log</code> to only record, or its exit status (<code>/0</code>, <code>/1</code>, …). The body of a POST is kept in the ping log.
      </p>
      <div role="tablist" aria-label="Examples" class="tabs snippet-tabs" onKeyDown={onKey}>
        {SNIPPETS.map((s, i) => (
          <button
            key={s.label}
            type="button"
            role="tab"
            id={`${id}-tab-${i}`}
            aria-selected={i === chosen}
            aria-controls={`${id}-panel`}
            tabIndex={i === chosen ? 0 : -1}
            class={i === chosen ? 'tab current' : 'tab'}
            onClick={() => setChosen(i)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${chosen}`} class="snippet">
        <pre tabIndex={0}><code>{snippet.code(pingUrl)}</code></pre>
        <CopyButton text={snippet.code(pingUrl)} what={`${snippet.label} example`} />
      </div>
    </section>
  );
}
