// The slice of OpenAPI 3.1 the description is written in: plain objects, so the document is
// JSON as served. Schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect).
export type Schema = Record<string, unknown>;

export interface MediaType {
  schema: Schema;
}

export interface Response {
  description: string;
  headers?: Record<string, { description?: string; schema: Schema }>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: Schema;
  style?: string;
  explode?: boolean;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, Response>;
  security?: Array<Record<string, string[]>>;
}

export type PathItem = Partial<Record<'get' | 'post' | 'delete' | 'put' | 'head' | 'options', Operation>> & {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
};

export type Paths = Record<string, PathItem>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const json = (schema: Schema, description: string): Response => ({ description, content: { 'application/json': { schema } } });

export const text = (description: string, type = 'text/plain'): Response => ({ description, content: { [type]: { schema: { type: 'string' } } } });

export const pathParam = (name: string, schema: Schema, description?: string): Parameter => ({ name, in: 'path', required: true, schema, ...(description ? { description } : {}) });
