// The transport-neutral view the contract suite speaks: each transport (REST, GraphQL) gets a
// driver that maps it onto these calls, so one suite proves both behave the same.
export type ErrorCode = 'VALIDATION' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT';

export interface CheckInput {
  name?: string;
  tags?: string;
  timeout?: number;
  grace?: number;
  schedule?: string;
  tz?: string;
  manualResume?: boolean;
  unique?: Array<'name' | 'tags' | 'timeout' | 'grace'>;
}

export interface CheckView {
  id: string;
  name: string;
  tags: string;
  timeout: number | null;
  grace: number;
  schedule: string | null;
  tz: string | null;
  status: 'new' | 'up' | 'grace' | 'down' | 'paused';
  started: boolean;
  nPings: number;
  manualResume: boolean;
}

export type Result<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

export interface Driver {
  name: string;
  createCheck(key: string, input: CheckInput): Promise<Result<{ check: CheckView; created: boolean }>>;
  updateCheck(key: string, id: string, input: CheckInput): Promise<Result<CheckView>>;
  getCheck(key: string, id: string): Promise<Result<CheckView>>;
  listChecks(key: string, tags?: string[]): Promise<Result<CheckView[]>>;
  pauseCheck(key: string, id: string): Promise<Result<CheckView>>;
  resumeCheck(key: string, id: string): Promise<Result<CheckView>>;
  deleteCheck(key: string, id: string): Promise<Result<CheckView>>;
  flips(key: string, id: string): Promise<Result<Array<{ up: boolean; at: string }>>>;
}
