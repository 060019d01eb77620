// How CLI commands print: JSON for scripts (--json), aligned lines for people.
export function printJson(value: unknown) {
  process.stdout.write(JSON.stringify(value) + '\n');
}

export function printTable(rows: Array<Record<string, unknown>>) {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd() + '\n';
  process.stdout.write(line(keys));
  for (const r of rows) process.stdout.write(line(keys.map((k) => String(r[k] ?? ''))));
}

export function printFields(fields: object) {
  const width = Math.max(...Object.keys(fields).map((k) => k.length));
  for (const [k, v] of Object.entries(fields)) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}
