// How CLI commands print: JSON for scripts (--json), aligned lines for people. Everything goes
// to the stream the command was given (process.stdout, or a test's buffer).
export interface TextSink {
  write(chunk: string): unknown;
}

export class Output {
  constructor(private readonly stream: TextSink) {}

  line(text: string) {
    this.stream.write(`${text}\n`);
  }

  json(value: unknown) {
    this.stream.write(JSON.stringify(value) + '\n');
  }

  table(rows: Array<Record<string, unknown>>) {
    if (rows.length === 0) return this.line('(none)');
    const keys = Object.keys(rows[0]!);
    const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k] ?? '').length)));
    const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
    this.line(line(keys));
    for (const r of rows) this.line(line(keys.map((k) => String(r[k] ?? ''))));
  }

  fields(fields: object) {
    const width = Math.max(...Object.keys(fields).map((k) => k.length));
    for (const [k, v] of Object.entries(fields)) this.line(`${k.padEnd(width)}  ${v}`);
  }
}
