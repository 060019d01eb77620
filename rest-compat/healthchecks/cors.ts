// Healthchecks' @cors(...) decorator (hc/api/decorators.py): OPTIONS answers 204, another
// method than the view's 405, and every answer carries these headers.

export function corsHeaders(methods: string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'X-Api-Key',
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Max-Age': '600',
  };
}
